import { complaintsEndpoints } from '@corridor/contracts/complaints';
import { dashboardsEndpoints } from '@corridor/contracts/dashboards';
import { disciplinaryEndpoints } from '@corridor/contracts/disciplinary';
import { ratingsEndpoints } from '@corridor/contracts/ratings';
import { endpoint } from '../api/endpoint';

export const complaintEndpoints = {
  create: endpoint(complaintsEndpoints, 'complaints.create'),
  list: endpoint(complaintsEndpoints, 'complaints.list'),
  get: endpoint(complaintsEndpoints, 'complaints.get'),
  setStatus: endpoint(complaintsEndpoints, 'complaints.setStatus'),
};
export const disciplinaryList = endpoint(disciplinaryEndpoints, 'disciplinary.list');
export const disciplinaryCreate = endpoint(disciplinaryEndpoints, 'disciplinary.create');
export const ratingsList = endpoint(ratingsEndpoints, 'ratings.list');
export const ratingsStats = endpoint(ratingsEndpoints, 'ratings.stats');
export const complianceKenya = endpoint(dashboardsEndpoints, 'compliance.kenya');
export const complianceTanzania = endpoint(dashboardsEndpoints, 'compliance.tanzania');
