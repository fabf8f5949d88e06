import type { EndpointDef } from '@corridor/contracts/endpoint';
import { ErrorCatalogue, type ErrorCode } from '@corridor/contracts/errors';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { i18n } from '../i18n/i18n';
import { json, type Handler, type Served } from './api-stub';

/**
 * Answers for serveApi, shaped by packages/contracts: a success body is parsed by the endpoint's
 * response schema before the test runs (a fixture that drifts from the contract fails at its
 * line), a refusal carries a code of the errors catalogue with that code's status. The server's
 * English message is RAW, so a test can prove the screen never shows it.
 */
const RAW = 'body.reason: raw server text';

const pathPattern = (def: EndpointDef): RegExp =>
  new RegExp(`^/api${def.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);

const matches = (def: EndpointDef, method: string, pathname: string): boolean =>
  method === def.method.toUpperCase() && pathPattern(def).test(pathname);

function successOf(def: EndpointDef): { status: number; parse: (v: unknown) => unknown } {
  const status = Number(Object.keys(def.responses).find((s) => Number(s) < 300) ?? 200);
  const schema = def.responses[status]?.schema;
  return {
    status,
    parse: (v) => {
      if (!schema) return v;
      const parsed = schema.safeParse(v);
      if (!parsed.success) throw new Error(`fixture for ${def.id} drifts from packages/contracts: ${parsed.error.message}`);
      // the fixture as written (the client parses it again): defaults the schema adds stay the server's business
      return v;
    },
  };
}

/** A fixture for `def`'s success answer, checked by its contract schema now. */
export function fixture<T>(def: EndpointDef, body: T): T {
  successOf(def).parse(body);
  return body;
}

type Request = Parameters<Handler>[0];

/**
 * `def` answered with `body` (or `body(request)`), checked by the contract: at once for a value,
 * per request for a function.
 */
export function answer(def: EndpointDef, body: unknown | ((req: Request) => unknown)): Handler {
  const { status, parse } = successOf(def);
  if (typeof body !== 'function') parse(body);
  return (req) => {
    if (!matches(def, req.method, req.url.pathname)) return undefined;
    const value = typeof body === 'function' ? parse((body as (r: Request) => unknown)(req)) : body;
    return status === 204 ? new Response(null, { status }) : json(status, value);
  };
}

/**
 * `def` refused with a catalogued code (its status from the catalogue) and the server's English:
 * RAW unless the test gives the words the service really uses.
 */
export function refuse(def: EndpointDef, code: ErrorCode, details?: unknown, message = RAW): Handler {
  return (req) =>
    matches(def, req.method, req.url.pathname)
      ? json(ErrorCatalogue[code].status, { error: { code, message, ...(details === undefined ? {} : { details }) } })
      : undefined;
}

/**
 * The sentence is on the page exactly once (no other element's text holds it either: a banner
 * repeating a field's problem counts twice), and neither the server's English nor a field path is.
 */
export async function saidOnce(sentence: string | RegExp): Promise<void> {
  const text = typeof sentence === 'string' ? new RegExp(sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : sentence;
  // counted once the page has settled (nothing loading): a second copy may come with a later answer
  await waitFor(() => {
    expect(document.querySelector('.spinner')).toBeNull();
    expect(screen.getAllByText(text).map((e) => e.textContent)).toHaveLength(1);
  });
  expect(document.body.textContent).not.toContain(RAW);
  expect(document.body.textContent).not.toMatch(/\bbody\.\w/);
}

/**
 * The Swahili catalogue's sentence for `key`, after checking that it is not the English one (a key
 * missing from sw.ts falls back to English, which a Swahili reader would then see).
 */
export function swahili(key: string, options?: Record<string, unknown>): string {
  const say = (lng: 'en' | 'sw') => (i18n.getFixedT(lng) as unknown as (k: string, o?: Record<string, unknown>) => string)(key, options);
  const sw = say('sw');
  expect(sw, `${key} reads the same in Swahili and English`).not.toBe(say('en'));
  return sw;
}

/**
 * The screen `open` renders says the catalogue's sentence `key` once in English, and once in
 * Swahili after a fresh render in that language (the language stays Swahili: setup.ts resets it).
 */
export async function saidOnceInEnglishAndSwahili(open: () => { unmount: () => void }, key: string): Promise<void> {
  const view = open();
  await saidOnce(i18n.getFixedT('en')(key as never) as unknown as string);
  view.unmount();
  await i18n.changeLanguage('sw');
  open();
  await saidOnce(swahili(key));
}

/**
 * The note dialog `button` opens (titled `title`, confirmed by a button of the same name) asks for
 * its note before anything is sent: confirmed empty, it says so and no `method` request goes.
 */
export async function noteAskedFirst(served: Served, opts: { button: string; title?: string; method: string }): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: opts.button }));
  const dialog = screen.getByRole('heading', { name: opts.title ?? opts.button }).closest('dialog')!;
  fireEvent.click(within(dialog).getByRole('button', { name: opts.button }));
  expect(await within(dialog).findByText('Fill this in.')).toBeTruthy();
  expect(served.asked.filter((a) => a.startsWith(`${opts.method} `))).toEqual([]);
  return dialog;
}
