import assert from 'node:assert/strict';
import net from 'node:net';
import express from 'express';
import { listen } from '../../cli/http-server';
import { LIMITS } from '../../domain/limits';
import { rejectLongUrls } from '../../lib/http-client-errors';
import { HttpError } from '../../lib/http-error';

/** The server side of the latest connection, to wait until it has read a piece (so pieces arrive apart). */
let accepted: net.Socket | undefined;

async function readByServer(bytes: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((accepted?.bytesRead ?? 0) < bytes) {
    assert.ok(Date.now() < deadline, `the server read ${accepted?.bytesRead} of ${bytes} bytes`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Sends `pieces` on one connection, each once the server has read the ones before; answers status and error code. */
async function send(port: number, pieces: string[]): Promise<{ status: number; code?: string }> {
  accepted = undefined;
  const socket = net.connect(port, '127.0.0.1');
  let raw = '';
  socket.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
  const closed = new Promise((resolve) => socket.on('close', resolve));
  socket.on('error', () => undefined);
  let sent = 0;
  for (const piece of pieces) {
    await readByServer(sent);
    await new Promise((resolve) => socket.write(piece, resolve));
    sent += Buffer.byteLength(piece, 'latin1');
  }
  await closed;
  const [head, body] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), code: body ? JSON.parse(body).error?.code : undefined };
}

describe('what a server answers to an oversize URL or oversize headers (answerClientErrors, rejectLongUrls)', () => {
  let port: number;
  let close: () => Promise<void>;

  before(async () => {
    const app = express();
    app.use(rejectLongUrls);
    app.use((_req, res) => void res.set('connection', 'close').json({ ok: true }));
    app.use((error: HttpError, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.set('connection', 'close').status(error.status).json(error.toJSON());
    });
    const served = await listen(app, '127.0.0.1', 0);
    served.server.on('connection', (socket: net.Socket) => (accepted = socket));
    port = (served.server.address() as net.AddressInfo).port;
    close = served.close;
  });
  after(() => close?.());

  const line = (target: string): string => `GET ${target} HTTP/1.1\r\nHost: a\r\n`;
  const longUrl = `/a?q=${'q'.repeat(17_000)}`;

  it('answers 414 uri_too_long to a URL over requestUrlBytes, under Node limit or over it, whole or in pieces', async () => {
    assert.deepEqual(await send(port, [`${line(`/a?q=${'q'.repeat(LIMITS.requestUrlBytes)}`)}\r\n`]), {
      status: 414,
      code: 'uri_too_long',
    });
    assert.deepEqual(await send(port, [`${line(longUrl)}\r\n`]), { status: 414, code: 'uri_too_long' });
    const whole = `${line(longUrl)}\r\n`;
    assert.deepEqual(await send(port, [whole.slice(0, 9_000), whole.slice(9_000)]), {
      status: 414,
      code: 'uri_too_long',
    });
  });

  it('answers 431 headers_too_large to headers over Node limit with a URL within its bound, whole or in pieces', async () => {
    const padded = `${line(`/a?q=${'q'.repeat(LIMITS.requestUrlBytes - 100)}`)}X-Pad: ${'h'.repeat(9_000)}\r\n\r\n`;
    assert.deepEqual(await send(port, [padded]), { status: 431, code: 'headers_too_large' });
    const long = `${line('/a')}X-Pad: ${'h'.repeat(17_000)}\r\n\r\n`;
    assert.deepEqual(await send(port, [long.slice(0, 9_000), long.slice(9_000)]), {
      status: 431,
      code: 'headers_too_large',
    });
    assert.deepEqual(await send(port, [`${line('/a')}\r\n`]), { status: 200, code: undefined });
  });
});
