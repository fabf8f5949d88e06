import { cargoEndpoints as all } from '@corridor/contracts/cargo';
import { endpoint } from '../api/endpoint';

export const cargoEndpoints = {
  listCompany: endpoint(all, 'cargo.listCompany'),
  listAdmin: endpoint(all, 'cargo.listAdmin'),
  processIdf: endpoint(all, 'cargo.processIdf'),
  get: endpoint(all, 'cargo.get'),
  attach: endpoint(all, 'cargo.attachDocument'),
  changeStatus: endpoint(all, 'cargo.changeStatus'),
  correct: endpoint(all, 'cargo.correct'),
};
