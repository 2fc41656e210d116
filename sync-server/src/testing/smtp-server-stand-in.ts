import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string; at: number };

/**
 * A real SMTP server on loopback for tests (the mail server is the outside party). It records
 * each connection and message; it can hold new connections before greeting (a slow server)
 * and refuse the next messages with a temporary error (451, as a busy server does).
 */
export async function startSmtpStandIn() {
  const connections: number[] = [];
  const received: ReceivedMail[] = [];
  const refusals: number[] = [];
  let refuseNext = 0;
  let held: Array<() => void> | null = null;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections.push(Date.now());
      if (held) held.push(() => callback());
      else callback();
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext--;
          refusals.push(Date.now());
          const busy = Object.assign(new Error('Try again later'), { responseCode: 451 });
          return callback(busy);
        }
        received.push({
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (!address || typeof address === 'string')
    throw new Error('the SMTP stand-in is not listening');

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    connections,
    received,
    refusals,
    /** New connections wait, ungreeted, until `release`. */
    hold() {
      held = [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      waiting.forEach((greet) => greet());
    },
    /** The next `count` messages are refused with 451. */
    refuse(count: number) {
      refuseNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
