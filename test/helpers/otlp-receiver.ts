import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it (ids in hex), with its resource's service name. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, string | number | boolean | undefined>;
}

/** A trace collector on loopback: accepts `POST /v1/traces` with OTLP JSON bodies and keeps every span. */
export interface OtlpReceiver {
  /** The base URL to give as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes?: OtlpAttribute[] }>;
    }>;
  }>;
}

function attributeMap(attributes: OtlpAttribute[] = []): ReceivedSpan['attributes'] {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue,
    ]),
  );
}

function collect(body: OtlpExport, into: ReceivedSpan[]): void {
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service = String(attributeMap(resourceSpans.resource?.attributes)['service.name']);
    for (const scope of resourceSpans.scopeSpans ?? [])
      for (const span of scope.spans ?? [])
        into.push({
          ...span,
          parentSpanId: span.parentSpanId || undefined,
          service,
          attributes: attributeMap(span.attributes),
        });
  }
}

/** Starts the receiver on an ephemeral loopback port; anything but a JSON `POST /v1/traces` is refused. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.includes('json')) {
        res.writeHead(415).end();
        return;
      }
      collect(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport, spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
