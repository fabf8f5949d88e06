import { fastifyPath, type EndpointDef } from '@corridor/contracts';

type Params = Record<string, string | number>;

/**
 * The demo talks to the platform the way any client does: HTTP through the gateway, as a signed-in
 * person (basic auth). Failures throw with the API's error message.
 */
export class DemoClient {
  constructor(
    private readonly baseUrl: string,
    private readonly who: { email: string; password: string },
  ) {}

  private get auth(): string {
    return 'Basic ' + Buffer.from(`${this.who.email}:${this.who.password}`).toString('base64');
  }

  url(def: Pick<EndpointDef, 'path'>, params: Params = {}, query: Record<string, unknown> = {}): string {
    const path = fastifyPath(def).replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(String(params[k])));
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined) q.append(k, String(x));
    return this.baseUrl + path + (q.size ? `?${q}` : '');
  }

  async call<T = unknown>(
    def: Pick<EndpointDef, 'path' | 'method' | 'id'>,
    opts: { params?: Params; query?: Record<string, unknown>; body?: unknown; form?: FormData } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { authorization: this.auth };
    let body: string | FormData | undefined;
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(this.url(def, opts.params, opts.query), { method: def.method.toUpperCase(), headers, body });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo: ${def.id} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
  }
}
