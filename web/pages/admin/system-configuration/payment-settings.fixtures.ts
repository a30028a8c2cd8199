import type { PaymentSettings } from '../../../../common/payments.ts';

/** The payment settings of a server with no payment processor set up (what a test starts from). */
export const UNSET_PAYMENT_SETTINGS: PaymentSettings = {
  btcpayUrl: null,
  storeId: null,
  apiKey: null,
  webhookSecret: null,
  fromEnvironment: { btcpayUrl: false, storeId: false, apiKey: false, webhookSecret: false },
  connected: false,
  delivery: { keyType: 'PREMIUM', validityHours: 24, maxHardwareBindings: 1 },
};
