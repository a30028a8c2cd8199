import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { AppContext } from '../../context.ts';
import {
  claimOrderMail,
  listDueOrderMails,
  markOrderMailFailed,
  markOrderMailSent,
} from './order-mail.store.ts';
import { openOrderLink } from './order-recovery.ts';
import { findOrderById, type OrderRow } from './orders.store.ts';

/*
 * The order mail: when SMTP_URL is set and the buyer gave an e-mail at Pay now, the code and the
 * order link go there once the order is paid. The code's transaction marks the mail due (once,
 * whichever instance settled: order-settlement.service.ts); the settling instance then tries at once,
 * and every reconciler round sends what is still due. One instance at a time holds a due mail
 * (claimOrderMail), so two never both send it. A failure never touches the order: a refused
 * recipient (5xx) is given up at once, anything else is retried with a growing pause, MAIL_ATTEMPTS
 * times in all. The address never reaches a log line (only the order id does), and the SMTP server's
 * answer is stored and logged with any address in it blanked.
 */

/** Attempts in all before a mail that keeps failing is given up. */
export const MAIL_ATTEMPTS = 6;
/** The pause after the first failure; each next one doubles (1, 2, 4, 8, 16 minutes). */
export const MAIL_RETRY_MS = 60_000;
/** How long an instance holds a mail it is sending (longer than the SMTP timeouts below). */
const MAIL_CLAIM_MS = 2 * 60_000;
const SMTP_TIMEOUT_MS = 20_000;
/** Mails sent per reconciler round. */
const MAIL_BATCH = 20;

/** Whether the order mail is on (SMTP_URL is set). */
export const mailing = (ctx: AppContext) => ctx.config.SMTP_URL !== undefined;

/** Any e-mail address in a text (an SMTP answer names the recipient), blanked. */
export const withoutAddresses = (text: string) =>
  text.replace(/<?[^\s<>@]+@[^\s<>@]+>?/g, '<address>').slice(0, 300);

/** The mail's text: the code, how long its key lasts, the order link and My key. */
export function orderMailText(order: OrderRow, orderLink: string | null, keyPage: string | null): string {
  return [
    'Thank you for your order. Your payment was received.',
    '',
    `Your redemption code: ${order.redemption_code}`,
    `It activates ${order.key_type} access for ${order.validity_hours} hours on up to ${order.max_hardware_bindings} device(s).`,
    '',
    ...(orderLink ? ['Your order page (keep this link private: it shows your code):', orderLink, ''] : []),
    ...(keyPage
      ? [`Your key, its time left and its devices: ${keyPage} (enter the code or the order link).`, '']
      : []),
    `Order ${order.id}, BTCPay invoice ${order.invoice_id ?? 'none'}.`,
  ].join('\n');
}

/** Sends the order mail (a service: ctx.services.orderMail). */
export class OrderMailer {
  private transport: Transporter<SMTPTransport.SentMessageInfo> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  private transportOf(): Transporter<SMTPTransport.SentMessageInfo> | null {
    const url = this.ctx.config.SMTP_URL;
    if (!url) return null;
    this.transport ??= nodemailer.createTransport({
      url,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    } as SMTPTransport.Options);
    return this.transport;
  }

  /** Tries the order's mail now, in the background (after the code's commit; never awaited by it). */
  kick(orderId: string): void {
    if (!mailing(this.ctx)) return;
    const attempt = this.send(orderId).catch((error: unknown) => {
      this.log.error({ err: error, orderId }, 'payments: the order mail could not be tried');
    });
    this.inFlight.add(attempt);
    void attempt.finally(() => this.inFlight.delete(attempt));
  }

  /** Every mail due now (the reconciler's round). How many were sent. */
  async sendDue(): Promise<number> {
    if (!mailing(this.ctx)) return 0;
    let sent = 0;
    for (const id of await listDueOrderMails(this.ctx.db, this.ctx.now(), MAIL_BATCH)) {
      if ((await this.send(id)) === 'sent') sent += 1;
    }
    return sent;
  }

  /** Waits for the mails being tried (tests, and closing). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }

  /** One attempt at the order's mail, if it is due and this instance gets it. */
  async send(orderId: string): Promise<'sent' | 'retry' | 'failed' | 'skipped'> {
    const transport = this.transportOf();
    const { db } = this.ctx;
    if (!transport || !(await claimOrderMail(db, orderId, this.ctx.now(), MAIL_CLAIM_MS))) return 'skipped';
    const order = await findOrderById(db, orderId);
    if (!order?.buyer_email || !order.redemption_code) return 'skipped';
    const attempts = Number(order.mail_attempts ?? 0) + 1;
    const orderLink = order.sealed_link
      ? openOrderLink(order.sealed_link, order.buyer_email, order.id)
      : null;
    const keyPage = orderLink ? `${new URL(orderLink).origin}/key` : null;
    try {
      await transport.sendMail({
        from: this.ctx.config.SMTP_FROM,
        to: order.buyer_email,
        subject: 'Your Scanline redemption code',
        text: orderMailText(order, orderLink, keyPage),
      });
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      // 5xx: the server refused for good (the recipient, most often); anything else is worth a retry.
      const refused = typeof code === 'number' && code >= 500 && code < 600;
      const giveUp = refused || attempts >= MAIL_ATTEMPTS;
      const reason = withoutAddresses(error instanceof Error ? error.message : String(error));
      const retryAt = giveUp ? null : this.ctx.now() + MAIL_RETRY_MS * 2 ** (attempts - 1);
      await markOrderMailFailed(db, orderId, { attempts, error: reason, retryAt });
      this.log.warn(
        { orderId, attempts, reason, retryAt: retryAt && new Date(retryAt).toISOString() },
        giveUp ? 'payments: the order mail was given up' : 'payments: the order mail failed; it is retried',
      );
      return giveUp ? 'failed' : 'retry';
    }
    await markOrderMailSent(db, orderId, attempts, this.ctx.now());
    return 'sent';
  }
}

/** Tries the order's mail now, in the background. */
export const kickOrderMail = (ctx: AppContext, orderId: string) => ctx.services.orderMail.kick(orderId);

declare module '../../context.ts' {
  interface AppServices {
    /** The order mail (order-mail.ts). */
    orderMail: OrderMailer;
  }
}
