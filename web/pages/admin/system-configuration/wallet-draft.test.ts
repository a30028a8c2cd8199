import { describe, expect, it } from 'vitest';
import { addWallet, removeWallet, sameWallets } from './wallet-draft.ts';

describe('wallet draft', () => {
  it('adds a wallet under the upper-cased, trimmed currency', () => {
    expect(addWallet({}, ' btc ', ' bc1qaddress ')).toEqual({
      ok: true,
      wallets: { BTC: 'bc1qaddress' },
      replaced: false,
    });
  });

  it('replaces the address of a currency that already has one', () => {
    const result = addWallet({ ETH: '0xold' }, 'eth', '0xnew');
    expect(result).toEqual({ ok: true, wallets: { ETH: '0xnew' }, replaced: true });
  });

  it('refuses a wallet without a currency or without an address', () => {
    expect(addWallet({}, '', '0xabc')).toEqual({ ok: false });
    expect(addWallet({}, 'ETH', '   ')).toEqual({ ok: false });
  });

  it('removes a wallet and leaves the others', () => {
    expect(removeWallet({ BTC: 'a', ETH: 'b' }, 'BTC')).toEqual({ ETH: 'b' });
  });

  it('compares wallets regardless of order', () => {
    expect(sameWallets({ BTC: 'a', ETH: 'b' }, { ETH: 'b', BTC: 'a' })).toBe(true);
    expect(sameWallets({ BTC: 'a' }, { BTC: 'b' })).toBe(false);
    expect(sameWallets({ BTC: 'a' }, { BTC: 'a', ETH: 'b' })).toBe(false);
  });
});
