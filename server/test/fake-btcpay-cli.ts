import { startFakeBtcpay } from './fake-btcpay.ts';

/*
 * Run on its own for trying payments locally:
 *   npx tsx server/test/fake-btcpay-cli.ts [port] [webhookUrl]
 * prints the four BTCPAY_* values to start the app with.
 */
const port = Number(process.argv[2] ?? 0);
const fake = await startFakeBtcpay({
  port,
  apiKey: 'fake-btcpay-api-key',
  webhookSecret: 'fake-btcpay-webhook-secret',
  webhookUrl: process.argv[3] ?? 'http://127.0.0.1:5000/api/payments/btcpay/webhook',
});
console.log(
  `BTCPAY_URL=${fake.origin} BTCPAY_STORE_ID=${fake.storeId} BTCPAY_API_KEY=${fake.apiKey} BTCPAY_WEBHOOK_SECRET=${fake.webhookSecret}`,
);
