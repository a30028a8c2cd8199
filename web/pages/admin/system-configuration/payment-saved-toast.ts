import { listed } from '@/lib/plural.ts';
import type { PaymentSettingField, PaymentSettings } from '../../../../common/payments.ts';

/** The connection settings as the save toast names them. */
const SETTING_NAMES: Record<PaymentSettingField, string> = {
  btcpayUrl: 'the BTCPay Server URL',
  storeId: 'the store ID',
  apiKey: 'the API key',
  webhookSecret: 'the webhook secret',
};

/**
 * What a save of the payment settings says, from the settings it left in effect: only a complete
 * connection is one orders use. A half-filled one is saved too, but says what is still missing, as
 * the Not connected badge beside it does.
 */
export function paymentSavedToast(settings: PaymentSettings): { title: string; description: string } {
  const title = 'Payment Settings Saved';
  if (settings.connected) return { title, description: 'Orders use the new settings now.' };
  const missing = (Object.keys(SETTING_NAMES) as PaymentSettingField[])
    .filter((field) => settings[field] === null)
    .map((field) => SETTING_NAMES[field]);
  const one = missing.length === 1;
  return {
    title,
    description:
      `Not connected yet: ${listed(missing)} ${one ? 'is' : 'are'} missing. ` +
      `Until ${one ? 'it is' : 'they are'} saved, buyers cannot pay through BTCPay Server.`,
  };
}
