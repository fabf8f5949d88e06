import type { IdfReaders } from '../cargo/idf-reader';
import type { OpsModule } from '../module';
import { ParserPool } from './parser-pool';
import { defaultParserSettings, type ParserSettings } from './settings';

/**
 * The readers of uploaded documents (PDF text, IDF exports): the parser processes, or the readers
 * a test hands in. Closed after the HTTP app, as the last uploads finish.
 */
export const parsersModule: OpsModule<{ readers?: IdfReaders; settings?: ParserSettings }, IdfReaders> = (
  _app,
  { base, life, readers, settings },
) => {
  if (readers) return readers;
  const pool = new ParserPool(settings ?? defaultParserSettings(), base.logger.child({ module: 'parsers' }));
  life.onClose(() => pool.close(), { afterApp: true });
  return {
    pdf: { ready: async () => undefined, read: (bytes) => pool.run('pdfText', bytes) },
    idfExport: (format, bytes) => pool.run('idfExport', { format, bytes }),
  };
};
