import { useMemo } from 'react';
import { useForm, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
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
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const { t, i18n } = useTranslation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- worded again when the language changes
  const resolver = useMemo(() => zodResolver(schema as never, { error: issueMessage(t) as never }), [schema, i18n.language]);
  return useForm<z.input<S>, unknown, z.output<S>>({ mode: 'onTouched', ...options, resolver: resolver as never });
}
