import { documentsEndpoints } from '@corridor/contracts/documents';
import { endpoint } from '../../api/endpoint';

export const documentUpload = endpoint(documentsEndpoints, 'documents.upload');
export const documentGet = endpoint(documentsEndpoints, 'documents.get');
export const documentsList = endpoint(documentsEndpoints, 'documents.list');
