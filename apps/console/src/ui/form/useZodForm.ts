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
    /** Sentences for the schema's own refinements (written in English in the contract), by the field path they name. */
    refinements?: Record<string, string>;
  } = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const { t, i18n } = useTranslation();
  const { refinements, ...formOptions } = options;
  const resolver = useMemo(() => {
    const base = zodResolver(schema as never, { error: issueMessage(t) as never }) as unknown as Resolver<FieldValues>;
    if (!refinements) return base;
    // a refinement's own message wins over zod's error map: worded here instead, by the path it names
    const worded: Resolver<FieldValues> = async (values, context, opts) => {
      const result = await base(values, context, opts);
      for (const [path, message] of Object.entries(refinements)) {
        const e = get(result.errors, path) as { type?: string; message?: string } | undefined;
        if (e?.type === 'custom') e.message = message;
      }
      return result;
    };
    return worded;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- worded again when the language changes
  }, [schema, i18n.language]);
  return useForm<z.input<S>, unknown, z.output<S>>({ mode: 'onTouched', ...formOptions, resolver: resolver as never });
}
