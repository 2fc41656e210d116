import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Stripe's API, speaking its wire format, for the Stripe adapter's tests
 * (DESIGN.md: fakes only for the outside world, behind their port). It answers the calls the
 * adapter makes — products, customers, attaching PaymentMethods, PaymentIntents, refunds of a
 * succeeded PaymentIntent (in part or in full, never more in total than it took), coupons,
 * subscriptions (created with their discounts, their card changed, cancelled at period end) —
 * with form-encoded bodies in (bracket notation) and JSON objects out, Stripe's error envelopes
 * with their statuses, and Stripe's idempotency: a key seen before answers the stored response
 * again (errors too) and creates nothing; the same key with other parameters is refused.
 * Every request is recorded, so a test counts what was really created.
 *
 * Test PaymentMethods are Stripe's own: pm_card_visa and pm_card_mastercard succeed,
 * pm_card_chargeDeclined and pm_card_chargeDeclinedInsufficientFunds are declined,
 * pm_card_authenticationRequired needs the bank's confirmation.
 */

type Behaviour = 'succeeds' | 'declined' | 'insufficient-funds' | 'authentication-required';
type Json = Record<string, unknown>;
type Reply = { status: number; body: Json };
type Params = Record<string, unknown>;

const testMethods: Record<string, { brand: string; last4: string; behaviour: Behaviour }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeeds' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'declined' },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    behaviour: 'insufficient-funds',
  },
  pm_card_authenticationRequired: {
    brand: 'visa',
    last4: '3184',
    behaviour: 'authentication-required',
  },
};

export type RecordedRequest = {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Params;
  /** The stored answer was given again for a key seen before. */
  replayed: boolean;
};

/** Parses a form body in Stripe's bracket notation: `items[0][price_data][currency]=usd`. */
export function parseStripeForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Params = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) {
        node[segment] = value;
        return;
      }
      const next = path[index + 1]!;
      node[segment] ??= /^\d+$/.test(next) ? [] : {};
      node = node[segment] as Params;
    });
  }
  return root;
}

const cardError = (
  code: string,
  declineCode: string,
  message: string,
  extra: Json = {},
): Reply => ({
  status: 402,
  body: {
    error: { type: 'card_error', code, decline_code: declineCode, message, ...extra },
  },
});

const invalidRequest = (message: string, status = 400, code?: string): Reply => ({
  status,
  body: { error: { type: 'invalid_request_error', message, ...(code ? { code } : {}) } },
});

export type StripeWireServer = Awaited<ReturnType<typeof startStripeWireServer>>;

export async function startStripeWireServer() {
  const requests: RecordedRequest[] = [];
  const objects = new Map<string, Json>();
  const stored = new Map<string, { path: string; body: string; reply: Reply }>();
  /** Attached PaymentMethods: the test token each was made from, and its customer. */
  const methods = new Map<string, { token: string; customer: string }>();
  /** What has been refunded of each PaymentIntent, in minor units. */
  const refunded = new Map<string, number>();
  type Failure = { mode: 'http-500' | 'drop'; path?: string };
  const failures: Failure[] = [];

  const now = () => Math.floor(Date.now() / 1000);
  const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  const keep = (object: Json) => {
    objects.set(object.id as string, object);
    return { status: 200, body: object };
  };

  function paymentMethod(id: string, customer: string | null): Json | null {
    const test = testMethods[methods.get(id)?.token ?? id];
    if (!test) return null;
    return {
      id,
      object: 'payment_method',
      type: 'card',
      created: now(),
      customer,
      livemode: false,
      metadata: {},
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: test.brand,
        last4: test.last4,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        funding: 'credit',
        country: 'US',
      },
    };
  }

  function behaviourOf(paymentMethodId: string): Behaviour | null {
    return testMethods[methods.get(paymentMethodId)?.token ?? paymentMethodId]?.behaviour ?? null;
  }

  function attach(id: string, params: Params): Reply {
    const customer = params.customer as string | undefined;
    if (!customer || !objects.has(customer))
      return invalidRequest(`No such customer: '${customer}'`, 404, 'resource_missing');
    const known = methods.get(id);
    if (known && known.customer !== customer) {
      return invalidRequest('This PaymentMethod was previously attached to another customer.');
    }
    if (known) return { status: 200, body: paymentMethod(id, customer)! };
    const test = testMethods[id];
    if (!test) return invalidRequest(`No such PaymentMethod: '${id}'`, 404, 'resource_missing');
    // As at Stripe, attaching a test token makes a new PaymentMethod of the customer's.
    const created = newId('pm');
    methods.set(created, { token: id, customer });
    return keep(paymentMethod(created, customer)!);
  }

  function createPaymentIntent(params: Params): Reply {
    const paymentMethodId = params.payment_method as string;
    const behaviour = behaviourOf(paymentMethodId);
    if (!behaviour)
      return invalidRequest(`No such PaymentMethod: '${paymentMethodId}'`, 404, 'resource_missing');
    const intent: Json = {
      id: newId('pi'),
      object: 'payment_intent',
      amount: Number(params.amount),
      amount_received: 0,
      currency: params.currency,
      customer: params.customer ?? null,
      description: params.description ?? null,
      payment_method: paymentMethodId,
      metadata: params.metadata ?? {},
      confirmation_method: 'automatic',
      capture_method: 'automatic',
      created: now(),
      livemode: false,
      latest_charge: null,
      last_payment_error: null,
      next_action: null,
      status: 'requires_confirmation',
    };
    keep(intent);
    const offSession = params.off_session === 'true';
    if (behaviour === 'succeeds') {
      Object.assign(intent, {
        status: 'succeeded',
        amount_received: intent.amount,
        latest_charge: newId('ch'),
      });
      return { status: 200, body: intent };
    }
    if (behaviour === 'authentication-required' && !offSession) {
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      return { status: 200, body: intent };
    }
    const error =
      behaviour === 'authentication-required'
        ? cardError(
            'authentication_required',
            'authentication_required',
            'Your card was declined. This transaction requires authentication.',
          )
        : behaviour === 'insufficient-funds'
          ? cardError('card_declined', 'insufficient_funds', 'Your card has insufficient funds.')
          : cardError('card_declined', 'generic_decline', 'Your card was declined.');
    Object.assign(intent, {
      status: 'requires_payment_method',
      last_payment_error: { ...(error.body.error as Json) },
    });
    (error.body.error as Json).payment_intent = intent;
    return error;
  }

  /**
   * A refund of a PaymentIntent, as Stripe makes one: of a succeeded intent only, the amount
   * left when none is given, and never more in total than the intent took. Test-mode refunds
   * succeed at once.
   */
  function createRefund(params: Params): Reply {
    const intentId = params.payment_intent as string | undefined;
    if (!intentId) return invalidRequest('Must provide one of charge or payment_intent.');
    const intent = objects.get(intentId);
    if (!intent || intent.object !== 'payment_intent')
      return invalidRequest(`No such payment_intent: '${intentId}'`, 404, 'resource_missing');
    if (intent.status !== 'succeeded')
      return invalidRequest(
        `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        400,
        'payment_intent_unexpected_state',
      );
    const already = refunded.get(intentId) ?? 0;
    const left = (intent.amount_received as number) - already;
    if (left <= 0)
      return invalidRequest(
        `Charge ${intent.latest_charge as string} has already been refunded.`,
        400,
        'charge_already_refunded',
      );
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1)
      return invalidRequest('Invalid positive integer', 400, 'parameter_invalid_integer');
    if (amount > left)
      return invalidRequest(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        400,
        'amount_too_large',
      );
    refunded.set(intentId, already + amount);
    return keep({
      id: newId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intentId,
      status: 'succeeded',
      created: now(),
      metadata: params.metadata ?? {},
      charge: null,
      reason: params.reason ?? null,
    });
  }

  function createCoupon(params: Params): Reply {
    const id = (params.id as string | undefined) ?? newId('co');
    if (objects.has(id))
      return invalidRequest('Coupon already exists.', 400, 'resource_already_exists');
    const duration = params.duration as string;
    if (!['forever', 'once', 'repeating'].includes(duration))
      return invalidRequest('Invalid duration: must be one of forever, once, or repeating');
    const months =
      params.duration_in_months === undefined ? null : Number(params.duration_in_months);
    if ((duration === 'repeating') !== (months !== null && months >= 1))
      return invalidRequest(
        'duration_in_months is required with duration repeating, and only then.',
      );
    const percentOff = params.percent_off === undefined ? null : Number(params.percent_off);
    const amountOff = params.amount_off === undefined ? null : Number(params.amount_off);
    if ((percentOff === null) === (amountOff === null))
      return invalidRequest('Exactly one of percent_off or amount_off is required.');
    if (amountOff !== null && !params.currency)
      return invalidRequest('currency is required with amount_off.');
    return keep({
      id,
      object: 'coupon',
      created: now(),
      livemode: false,
      valid: true,
      times_redeemed: 0,
      name: params.name ?? null,
      duration,
      duration_in_months: months,
      percent_off: percentOff,
      amount_off: amountOff,
      currency: params.currency ?? null,
      metadata: params.metadata ?? {},
    });
  }

  /** A subscription's discounts: each coupon named, from now for its duration, as Stripe counts. */
  function discountsOf(params: Params, subscription: string, customer: string) {
    const asked = (params.discounts as Array<{ coupon?: string }> | undefined) ?? [];
    const made: Json[] = [];
    for (const { coupon: couponId } of asked) {
      const coupon = couponId ? objects.get(couponId) : undefined;
      if (!coupon || coupon.object !== 'coupon')
        return invalidRequest(`No such coupon: '${couponId}'`, 400, 'resource_missing');
      const start = now();
      const months = coupon.duration_in_months as number | null;
      const end = new Date(start * 1000);
      end.setUTCMonth(end.getUTCMonth() + (months ?? 0));
      made.push({
        id: newId('di'),
        object: 'discount',
        coupon,
        customer,
        subscription,
        start,
        end: coupon.duration === 'repeating' ? Math.floor(end.getTime() / 1000) : null,
      });
    }
    return made;
  }

  function createSubscription(params: Params): Reply {
    const customer = params.customer as string;
    if (!objects.has(customer))
      return invalidRequest(`No such customer: '${customer}'`, 404, 'resource_missing');
    const [item] = (params.items as Array<{ price_data: Params & { recurring: Params } }>) ?? [];
    if (!item?.price_data) return invalidRequest('Missing required param: items[0][price_data].');
    const trialEnd = Number(params.trial_end);
    if (!(trialEnd > now()))
      return invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.');
    const data = item.price_data;
    const id = newId('sub');
    const discounts = discountsOf(params, id, customer);
    if (!Array.isArray(discounts)) return discounts;
    for (const discount of discounts) keep(discount);
    return keep({
      id,
      object: 'subscription',
      customer,
      status: 'trialing',
      created: now(),
      start_date: now(),
      trial_start: now(),
      trial_end: trialEnd,
      billing_cycle_anchor: trialEnd,
      cancel_at_period_end: false,
      discounts: discounts.map((discount) => discount.id),
      canceled_at: null,
      ended_at: null,
      default_payment_method: params.default_payment_method ?? null,
      livemode: false,
      metadata: params.metadata ?? {},
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            subscription: id,
            quantity: 1,
            current_period_start: now(),
            current_period_end: trialEnd,
            price: {
              id: newId('price'),
              object: 'price',
              active: false,
              currency: data.currency,
              product: data.product,
              unit_amount: Number(data.unit_amount),
              type: 'recurring',
              recurring: {
                interval: data.recurring.interval,
                interval_count: Number(data.recurring.interval_count ?? 1),
                usage_type: 'licensed',
              },
            },
          },
        ],
      },
    });
  }

  function route(method: string, path: string, params: Params): Reply {
    if (method === 'POST' && path === '/v1/products') {
      return keep({
        id: newId('prod'),
        object: 'product',
        active: true,
        created: now(),
        livemode: false,
        name: params.name,
        metadata: params.metadata ?? {},
      });
    }
    if (method === 'POST' && path === '/v1/customers') {
      return keep({
        id: newId('cus'),
        object: 'customer',
        created: now(),
        livemode: false,
        email: params.email ?? null,
        metadata: params.metadata ?? {},
      });
    }
    const attachPath = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path);
    if (method === 'POST' && attachPath) return attach(decodeURIComponent(attachPath[1]!), params);
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(params);
    if (method === 'POST' && path === '/v1/subscriptions') return createSubscription(params);
    if (method === 'POST' && path === '/v1/coupons') return createCoupon(params);
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
    if (method === 'GET' && path === '/v1/subscriptions') {
      // A customer's subscriptions, every status (one page: tests keep few).
      const data = [...objects.values()].filter(
        (o) => o.object === 'subscription' && o.customer === params.customer,
      );
      return {
        status: 200,
        body: { object: 'list', url: '/v1/subscriptions', has_more: false, data },
      };
    }
    const one = /^\/v1\/(payment_intents|subscriptions|coupons)\/([^/]+)$/.exec(path);
    const found = one ? objects.get(decodeURIComponent(one[2]!)) : undefined;
    if (one && !found)
      return invalidRequest(`No such object: '${one[2]}'`, 404, 'resource_missing');
    if (method === 'GET' && found) return { status: 200, body: found };
    if (method === 'POST' && found && found.object === 'subscription') {
      const defaultMethod = params.default_payment_method as string | undefined;
      if (defaultMethod !== undefined) {
        // As at Stripe: only a PaymentMethod attached to the subscription's customer.
        if (methods.get(defaultMethod)?.customer !== found.customer)
          return invalidRequest(
            `The customer does not have a payment method with the ID ${defaultMethod}.`,
          );
        found.default_payment_method = defaultMethod;
      }
      if (params.cancel_at_period_end !== undefined)
        found.cancel_at_period_end = params.cancel_at_period_end === 'true';
      return { status: 200, body: found };
    }
    return invalidRequest(`Unrecognized request URL (${method}: ${path}).`, 404);
  }

  function answer(response: ServerResponse, reply: Reply, replayed: boolean) {
    response.writeHead(reply.status, {
      'content-type': 'application/json',
      'request-id': newId('req'),
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
    response.end(JSON.stringify(reply.body));
  }

  function handle(request: IncomingMessage, response: ServerResponse, text: string) {
    const url = new URL(request.url ?? '/', 'http://stripe.local');
    const method = request.method ?? 'GET';
    const params = parseStripeForm(method === 'GET' ? url.search.slice(1) : text);
    const key = request.headers['idempotency-key'] as string | undefined;
    const due = failures.findIndex((f) => !f.path || f.path === url.pathname);
    const failure = due === -1 ? undefined : failures.splice(due, 1)[0]!.mode;
    if (failure === 'http-500') {
      requests.push({ method, path: url.pathname, idempotencyKey: key, params, replayed: false });
      const error = { type: 'api_error', message: 'Something went wrong on Stripe’s end.' };
      return answer(response, { status: 500, body: { error } }, false);
    }
    const previous = key ? stored.get(key) : undefined;
    requests.push({
      method,
      path: url.pathname,
      idempotencyKey: key,
      params,
      replayed: Boolean(previous),
    });
    let reply: Reply;
    if (previous && (previous.path !== url.pathname || previous.body !== text)) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
      reply = { status: 400, body: { error: { type: 'idempotency_error', message } } };
    } else if (previous) {
      reply = previous.reply;
    } else {
      reply = route(method, url.pathname, params);
      if (key && method === 'POST') stored.set(key, { path: url.pathname, body: text, reply });
    }
    // A dropped connection: the work is done and kept, its answer lost on the way back.
    if (failure === 'drop') return request.socket.destroy();
    answer(response, reply, Boolean(previous) && reply === previous?.reply);
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** For STRIPE_API_BASE. */
    apiBase: `http://127.0.0.1:${port}`,
    requests,
    /** The objects of one kind the server created ('payment_intent', 'subscription', …). */
    created: (object: string) => [...objects.values()].filter((o) => o.object === object),
    object: (id: string) => objects.get(id),
    /** What has been refunded of a PaymentIntent, in minor units. */
    refundedOf: (paymentIntentId: string) => refunded.get(paymentIntentId) ?? 0,
    /** The next requests fail: a 500 answer, or a connection dropped after the work is done. */
    failNext: (...next: Array<Failure['mode']>) => {
      failures.push(...next.map((mode) => ({ mode })));
    },
    /** The same, for the next requests to this path only. */
    failNextOn: (path: string, ...next: Array<Failure['mode']>) => {
      failures.push(...next.map((mode) => ({ mode, path })));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
