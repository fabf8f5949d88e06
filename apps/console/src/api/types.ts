import type { z } from 'zod';
import type { EndpointDef } from '@corridor/contracts/endpoint';

/**
 * Request and response types of an endpoint, taken from its zod schemas in packages/contracts.
 * Inputs use the schema's input side (defaults optional); a field whose input is `unknown`
 * (a preprocess, such as repeated query values) takes its parsed type instead.
 */
type Loose<I, O> = { [K in keyof I]: unknown extends I[K] ? (K extends keyof O ? O[K] : never) : I[K] };
type InputOf<S> = S extends z.ZodType ? Loose<z.input<S>, z.output<S>> : never;

type Req<E extends EndpointDef> = NonNullable<E['request']>;
type ParamsOf<E extends EndpointDef> = Req<E> extends { params: infer P } ? InputOf<P> : never;
type QueryOf<E extends EndpointDef> = Req<E> extends { query: infer Q } ? InputOf<Q> : never;
/** A multipart endpoint takes FormData (the schema documents its fields); others their schema's input. */
type BodyOf<E extends EndpointDef> =
  Req<E> extends { bodyContentType: 'multipart/form-data' }
    ? FormData
    : Req<E> extends { body: infer B }
      ? B extends z.ZodType
        ? z.input<B>
        : never
      : never;

type Ok<R, S extends number> = R extends Record<S, { schema: infer Sc }> ? (Sc extends z.ZodType ? z.output<Sc> : void) : never;
/** The success body: the 200 (or 201, 202) schema's parsed type, void for a 204 or a body-less answer. */
export type ResponseOf<E extends EndpointDef> = 200 extends keyof E['responses']
  ? Ok<E['responses'], 200>
  : 201 extends keyof E['responses']
    ? Ok<E['responses'], 201>
    : 202 extends keyof E['responses']
      ? Ok<E['responses'], 202>
      : void;

type Field<K extends string, T> = [T] extends [never] ? { [P in K]?: never } : { [P in K]: T };
/** What a call takes: params, query and body where the endpoint has them. */
export type CallInput<E extends EndpointDef> = Field<'params', ParamsOf<E>> &
  Partial<Field<'query', QueryOf<E>>> &
  BodyField<BodyOf<E>> & { signal?: AbortSignal };
/** A body that may be left out (its schema accepts undefined) is optional. */
type BodyField<B> = [B] extends [never] ? { body?: never } : undefined extends B ? { body?: B } : { body: B };
