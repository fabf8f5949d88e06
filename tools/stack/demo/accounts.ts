import type { Role } from '@corridor/contracts';

export const DEMO_PASSWORD = 'corridor-demo';

export interface DemoAccount {
  email: string;
  password: string;
  name: string;
  roles: Role[];
  companyId: number | null;
}

/**
 * The people of the demo (`pnpm start` with DEMO on): one per kind of console user. The company
 * account is Pwani Freight Movers (seed company 101), both its staff and its clearing agent, so one
 * sign-in shows the whole company portal. The administrator is the bootstrap admin.
 */
export const DEMO_ACCOUNTS = {
  dispatcher: {
    email: 'dispatcher@corridor.local',
    password: DEMO_PASSWORD,
    name: 'Amina Dispatcher',
    roles: ['dispatcher'],
    companyId: null,
  },
  company: {
    email: 'pwani@corridor.local',
    password: DEMO_PASSWORD,
    name: 'Juma Pwani',
    roles: ['company_user', 'clearing_agent'],
    companyId: 101,
  },
  officer: {
    email: 'officer@corridor.local',
    password: DEMO_PASSWORD,
    name: 'Grace Officer',
    roles: ['association_officer'],
    companyId: null,
  },
  analyst: {
    email: 'analyst@corridor.local',
    password: DEMO_PASSWORD,
    name: 'Baraka Analyst',
    roles: ['association_analyst'],
    companyId: null,
  },
} satisfies Record<string, DemoAccount>;

export type DemoRole = keyof typeof DEMO_ACCOUNTS;
