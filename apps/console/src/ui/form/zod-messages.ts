import type { TFunction } from 'i18next';

/** The parts of a zod issue the sentences use (zod 4's raw issue, before it has a message). */
interface Issue {
  code: string;
  input?: unknown;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  message?: string;
}

/**
 * A zod issue as a sentence for people, in the user's language: the forms' resolver passes this
 * as zod's error map, so the contract's schemas check a form and the console words the result.
 * A message a schema wrote itself (a refinement's) is kept as it is.
 */
export function issueMessage(t: TFunction): (issue: Issue) => string | undefined {
  return (iss) => {
    // NaN: a coerced number of nothing (an id whose select was left on its empty option)
    const empty =
      iss.input === undefined ||
      iss.input === null ||
      iss.input === '' ||
      Number.isNaN(iss.input) ||
      (Array.isArray(iss.input) && iss.input.length === 0);
    switch (iss.code) {
      case 'invalid_type':
        if (empty) return t('form.required');
        return iss.origin === 'number' || /number/.test(iss.message ?? '') ? t('form.number') : t('form.invalid');
      case 'too_small':
        if (empty || (iss.origin === 'string' && Number(iss.minimum) === 1))
          return iss.origin === 'array' ? t('form.chooseOne') : t('form.required');
        if (iss.origin === 'string') return t('form.minLength', { count: Number(iss.minimum) });
        if (iss.origin === 'array') return t('form.minItems', { count: Number(iss.minimum) });
        return t('form.atLeast', { value: Number(iss.minimum) });
      case 'too_big':
        if (iss.origin === 'string') return t('form.maxLength', { count: Number(iss.maximum) });
        if (iss.origin === 'array') return t('form.maxItems', { count: Number(iss.maximum) });
        return t('form.atMost', { value: Number(iss.maximum) });
      case 'invalid_format':
        if (empty) return t('form.required');
        if (iss.format === 'email') return t('form.email');
        if (iss.format === 'url') return t('form.url');
        if (iss.format === 'datetime') return t('form.dateTime');
        return t('form.invalid');
      case 'invalid_value':
      case 'invalid_union':
        return empty ? t('form.required') : t('form.choose');
      default:
        return undefined; // zod's own (or the schema's) message
    }
  };
}
