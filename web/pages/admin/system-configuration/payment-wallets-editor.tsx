import { LoaderCircle, Plus, RotateCcw, Save, Trash2, Wallet } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/cn.ts';
import { toast } from '@/lib/toast.ts';
import { currencyCodeProblem, QUICK_ADD_CURRENCIES } from '../../../../common/system.ts';
import { useUnsavedEdits } from '../shared/use-unsaved-changes-guard.tsx';
import { addWallet, normalizeCurrency, removeWallet, type Wallets } from './wallet-draft.ts';

/**
 * Payment wallets as a draft: Add and Remove change the draft only, Save Configuration publishes it
 * (buyers see only saved wallets). The page holds the draft so switching tabs keeps it.
 */
export function PaymentWalletsEditor({
  wallets,
  problems = {},
  dirty,
  saving,
  onChange,
  onDiscard,
  onSave,
}: {
  /** The draft (equal to the saved wallets while nothing is edited). */
  wallets: Wallets;
  /** Wallets buyers are not shown (or a save was refused for), currency code -> reason. */
  problems?: Record<string, string>;
  dirty: boolean;
  saving: boolean;
  onChange: (wallets: Wallets) => void;
  onDiscard: () => void;
  onSave: () => void;
}) {
  const currencyId = useId();
  const addressId = useId();
  const addressRef = useRef<HTMLInputElement>(null);
  const [currency, setCurrency] = useState('');
  const [address, setAddress] = useState('');
  // An address typed but not added yet is an edit too.
  useUnsavedEdits(address.trim() !== '');
  const entries = Object.entries(wallets).sort(([a], [b]) => a.localeCompare(b));

  const add = (event: FormEvent) => {
    event.preventDefault();
    const result = addWallet(wallets, currency, address);
    if (!result.ok) {
      toast({
        title: 'Invalid Wallet',
        description: 'Please provide both currency and wallet address',
        variant: 'destructive',
      });
      return;
    }
    const code = normalizeCurrency(currency);
    const codeProblem = currencyCodeProblem(code);
    if (codeProblem) {
      toast({ title: 'Invalid Wallet', description: codeProblem, variant: 'destructive' });
      return;
    }
    onChange(result.wallets);
    setCurrency('');
    setAddress('');
    toast({
      title: 'Wallet Added',
      description: `${code} wallet ${result.replaced ? 'replaced' : 'added'}. Save Configuration to publish it.`,
    });
  };

  const remove = (code: string) => {
    onChange(removeWallet(wallets, code));
    toast({
      title: 'Wallet Removed',
      description: `${code} wallet removed. Save Configuration to publish it.`,
    });
  };

  const quickAdd = (code: string) => {
    setCurrency(code);
    addressRef.current?.focus();
  };

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Add Wallet</CardTitle>
          <CardDescription>A wallet buyers can pay into. Pick a currency or type its ticker.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={add} noValidate className="grid gap-4">
            <div className="grid gap-2">
              <span className="text-sm font-medium">Quick add</span>
              <div className="flex flex-wrap gap-2">
                {QUICK_ADD_CURRENCIES.map((code) => (
                  <Button
                    key={code}
                    type="button"
                    variant={normalizeCurrency(currency) === code ? 'secondary' : 'outline'}
                    size="sm"
                    disabled={code in wallets}
                    title={code in wallets ? `${code} already has a wallet` : `Add a ${code} wallet`}
                    onClick={() => quickAdd(code)}
                  >
                    {code}
                  </Button>
                ))}
              </div>
            </div>
            <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
              <div className="grid gap-2">
                <Label htmlFor={currencyId}>Currency</Label>
                <Input
                  id={currencyId}
                  value={currency}
                  maxLength={10}
                  placeholder="BTC"
                  autoComplete="off"
                  onChange={(e) => setCurrency(e.target.value.toUpperCase())}
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={addressId}>Wallet Address</Label>
                <Input
                  id={addressId}
                  ref={addressRef}
                  value={address}
                  maxLength={256}
                  placeholder="Paste the receiving address"
                  autoComplete="off"
                  className="font-mono"
                  onChange={(e) => setAddress(e.target.value)}
                />
              </div>
            </div>
            <div>
              <Button type="submit" variant="secondary">
                <Plus />
                Add Wallet
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      <Card className="flex flex-col">
        <CardHeader>
          <div className="flex items-center justify-between gap-2">
            <CardTitle className="text-lg">Configured Wallets ({entries.length})</CardTitle>
            {dirty && (
              <Badge variant="outline" className="border-amber-500/40 bg-amber-500/15 text-amber-300">
                Unsaved changes
              </Badge>
            )}
          </div>
          <CardDescription>
            Adding and removing edit a draft; buyers see it after Save Configuration.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex-1">
          {entries.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
              <Wallet className="h-6 w-6" />
              No payment wallets configured
            </div>
          ) : (
            <ul className="grid gap-2" aria-label="Configured wallets">
              {entries.map(([code, addr]) => (
                <li
                  key={code}
                  className={cn(
                    'flex flex-wrap items-center gap-3 rounded-md border p-3',
                    problems[code] && 'border-destructive/60',
                  )}
                >
                  <Badge variant="secondary" className="shrink-0 font-mono">
                    {code}
                  </Badge>
                  <span className="min-w-0 flex-1 break-all font-mono text-xs text-muted-foreground">
                    {addr}
                  </span>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="shrink-0 text-red-400 hover:text-red-300"
                    aria-label={`Remove ${code} wallet`}
                    onClick={() => remove(code)}
                  >
                    <Trash2 />
                    Remove
                  </Button>
                  {problems[code] && (
                    <p role="alert" className="basis-full text-sm text-destructive">
                      {problems[code]}. Buyers are not shown this wallet: fix or remove it.
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
        <CardFooter className="justify-end gap-2">
          {dirty && (
            <Button variant="ghost" onClick={onDiscard} disabled={saving}>
              <RotateCcw />
              Discard
            </Button>
          )}
          <Button onClick={onSave} disabled={!dirty || saving}>
            {saving ? <LoaderCircle className="animate-spin" /> : <Save />}
            Save Configuration
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
