import { allEndpoints, generateOpenApi } from '../index';

process.stdout.write(JSON.stringify(generateOpenApi(allEndpoints), null, 2) + '\n');
