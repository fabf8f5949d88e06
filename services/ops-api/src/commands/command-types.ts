/**
 * Command types each protocol can encode on its data connection — mirrors the encoders ingest has
 * (services/ingest/src/protocols/<protocol>: encodeCommand). A protocol absent here takes none.
 */
const commandTypesByProtocol: Record<string, readonly string[]> = {
  gt06: ['engineStop', 'engineResume', 'custom'],
};

export const allCommandTypes = (): string[] => [...new Set(Object.values(commandTypesByProtocol).flat())].sort();
export const commandTypesFor = (protocol: string): string[] => [...(commandTypesByProtocol[protocol] ?? [])];
