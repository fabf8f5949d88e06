import { shipmentsEndpoints } from '@corridor/contracts/shipments';
import { endpoint } from '../api/endpoint';

export const shipmentEndpoints = {
  listCompany: endpoint(shipmentsEndpoints, 'shipments.listCompany'),
  listAdmin: endpoint(shipmentsEndpoints, 'shipments.listAdmin'),
  create: endpoint(shipmentsEndpoints, 'shipments.create'),
  get: endpoint(shipmentsEndpoints, 'shipments.get'),
  changeStatus: endpoint(shipmentsEndpoints, 'shipments.changeStatus'),
  allowed: endpoint(shipmentsEndpoints, 'shipments.allowedTransitions'),
  addProgress: endpoint(shipmentsEndpoints, 'shipments.addProgress'),
  attach: endpoint(shipmentsEndpoints, 'shipments.attachDocument'),
};
