/*
 * The package ships no types: the part wallet-address.ts uses (v0.5). A currency is found by its
 * ticker or name, case-insensitive; `validate` throws for a currency it has no validator for.
 */
declare module 'multicoin-address-validator' {
  export interface Currency {
    name: string;
    symbol: string;
  }
  interface MulticoinAddressValidator {
    validate(
      address: string,
      currencyNameOrSymbol: string,
      opts?: string | { networkType?: string },
    ): boolean;
    findCurrency(symbol: string): Currency | null;
    getCurrencies(): Currency[];
  }
  const validator: MulticoinAddressValidator;
  export default validator;
}
