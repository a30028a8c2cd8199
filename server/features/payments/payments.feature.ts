import type { Feature } from '../../feature.ts';
import { OrderMailer } from './order-mail.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { paymentsAdminRoutes } from './payments-admin.routes.ts';
import { registerPaymentsReconciler } from './payments-reconciler.ts';

/** Orders paid through BTCPay Server: the order page, its webhook, the settings, the reconciler. */
export const paymentsFeature = {
  name: 'payments',
  services: (ctx, app) => ({ orderMail: new OrderMailer(ctx, app.log) }),
  jobs: registerPaymentsReconciler,
  routes: [paymentsRoutes, paymentsAdminRoutes],
} satisfies Feature;
