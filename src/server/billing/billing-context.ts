/** What the billing flows share: the app's dependencies, the gateways and a logger. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../context';
import type { BillingGateways } from './gateways';

export interface BillingContext {
  deps: AppDeps;
  gateways: BillingGateways;
  log: FastifyBaseLogger;
}

/** What billingRoutes hands each billing route plugin. */
export interface BillingPluginOptions {
  ctx: BillingContext;
}
