import { useMemo } from 'react';
import { get, useForm, type FieldValues, type Resolver, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { issueMessage } from './zod-messages';

/**
 * A react-hook-form form checked by a contract schema (packages/contracts) through zodResolver,
 * its problems worded in the user's language. Fields are checked once left, then as they change.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> & {
    /** Sentences for the schema's own refinements (written in English in the contract), by the field path they name ('*' for any item of a list). */
    refinements?: Record<string, string>;
  } = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const { t, i18n } = useTranslation();
  const { refinements, ...formOptions } = options;
  const resolver = useMemo(() => {
    const wording = issueMessage(t);
    const base = zodResolver(schema as never, { error: wording as never }) as unknown as Resolver<FieldValues>;
    const worded: Resolver<FieldValues> = async (values, context, opts) => {
      const result = await base(values, context, opts);
      if (!Object.keys(result.errors).length) return result;
      // a schema's own message (the contract's `.min(8, 'at least 8 characters')`) wins over the error
      // map: its issue is worded here again by its code and limits, in the user's language
      const parsed = await (schema as z.ZodType).safeParseAsync(values);
      for (const issue of parsed.error?.issues ?? []) {
        const path = issue.path.join('.');
        const e = get(result.errors, path) as { type?: string; message?: string } | undefined;
        if (!e) continue;
        if (issue.code === 'custom') {
          // a refinement's message: the sentence given for its path ('plannedArrival'), or for any item of its list ('containerNumbers.*')
          const sentence = refinements?.[path] ?? refinements?.[issue.path.map((p) => (typeof p === 'number' ? '*' : String(p))).join('.')];
          if (sentence) e.message = sentence;
          continue;
        }
        const message = wording({ ...(issue as unknown as Parameters<typeof wording>[0]), input: get(values, path) as unknown });
        if (message) e.message = message;
      }
      return result;
    };
    return worded;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- worded again when the language changes
  }, [schema, i18n.language]);
  return useForm<z.input<S>, unknown, z.output<S>>({ mode: 'onTouched', ...formOptions, resolver: resolver as never });
}
