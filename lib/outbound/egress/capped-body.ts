/** A fetch on the global `Response` type: the MCP SDK's and the provider SDK's. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The length a response declares (`Content-Length`) when it is over `maxBytes`, else undefined. */
export function declaredOver(response: Response, maxBytes: number): number | undefined {
  const declared = Number(response.headers.get('content-length') ?? 0);
  return declared > maxBytes ? declared : undefined;
}

/**
 * The response with a body that stops at `maxBytes`: reading a body that streams past it fails with `tooLarge()` and
 * cancels the socket, so no more of it is read; a declared length over it fails the first read, with nothing read.
 * SDKs buffer an answer whole, so without this one answer could take the process's heap.
 */
export function capBody(response: Response, maxBytes: number, tooLarge: (bytes: number | string) => Error): Response {
  if (!response.body) return response;
  const declared = declaredOver(response, maxBytes);
  let body: ReadableStream<Uint8Array>;
  if (declared !== undefined) {
    void response.body.cancel().catch(() => undefined);
    body = new ReadableStream({ start: (controller) => controller.error(tooLarge(declared)) });
  } else {
    let seen = 0;
    body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(tooLarge(`more than ${maxBytes}`));
          else controller.enqueue(chunk);
        },
      }),
    );
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
