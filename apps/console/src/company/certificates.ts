import { certificatesEndpoints } from '@corridor/contracts/certificates';
import { endpoint } from '../api/endpoint';

export const certificateEndpoints = {
  list: endpoint(certificatesEndpoints, 'certificates.list'),
  stats: endpoint(certificatesEndpoints, 'certificates.stats'),
  get: endpoint(certificatesEndpoints, 'certificates.get'),
  apply: endpoint(certificatesEndpoints, 'certificates.apply'),
  generate: endpoint(certificatesEndpoints, 'certificates.generate'),
  viewLinks: endpoint(certificatesEndpoints, 'certificates.viewLinks'),
  approve: endpoint(certificatesEndpoints, 'certificates.approve'),
  reject: endpoint(certificatesEndpoints, 'certificates.reject'),
};
