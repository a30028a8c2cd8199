import validator from 'multicoin-address-validator';
import { currencyCodeProblem } from '../../../common/system.ts';

/*
 * Wallet addresses are checked with multicoin-address-validator (maintained; checksums per chain:
 * base58check and bech32 for BTC/LTC, EIP-55 for ETH and its tokens, base58 for SOL, …). Main-network
 * addresses only: a testnet address takes no real payment.
 */

/** Why `address` cannot take payments in `code`, in the operator's words; null when it can. */
export function walletProblem(code: string, address: string): string | null {
  const codeProblem = currencyCodeProblem(code);
  if (codeProblem) return codeProblem;
  const currency = validator.findCurrency(code);
  // findCurrency also matches names ("bitcoin"): only a ticker keys a wallet.
  if (!currency || currency.symbol.toUpperCase() !== code) {
    return `${code}: not a currency whose addresses can be checked (use its ticker, such as BTC, ETH or SOL)`;
  }
  let valid = false;
  try {
    valid = validator.validate(address, code, { networkType: 'prod' });
  } catch {
    // The library throws on some malformed input rather than answering false.
  }
  return valid ? null : `${code}: this is not ${article(currency.name)} ${currency.name} address`;
}

/** Each wallet that fails its check, currency code -> reason (empty when all pass). */
export function walletProblems(wallets: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [code, address] of Object.entries(wallets)) {
    const problem = walletProblem(code, address);
    if (problem) problems[code] = problem;
  }
  return problems;
}

function article(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
