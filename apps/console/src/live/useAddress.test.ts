import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { en } from '../i18n/en';
import { sw } from '../i18n/sw';
import { formatters } from '../i18n/format';
import { wordAddress } from './useAddress';

const reader = async (lng: 'en' | 'sw') => {
  const i18n = i18next.createInstance();
  await i18n.init({ resources: { en: { translation: en }, sw: { translation: sw } }, lng, interpolation: { escapeValue: false } });
  return (address: string) => wordAddress(address, i18n.t, formatters(lng));
};

describe("an offline address in the reader's language", () => {
  it('reads in English as the server wrote it', async () => {
    const words = await reader('en');
    for (const a of [
      '14 km NW of Voi, KE',
      'Voi, KE',
      'Malaba OSBP, KE',
      '5 km N of Namanga (TZ), KE',
      'at sea, 21 km E of Mombasa, KE',
      'at sea, -5.0000, 45.0000',
      '0.5000, 37.5000, KE',
    ]) {
      expect(words(a)).toBe(a);
    }
  });

  it('reads in Swahili: distance, direction and "mwa" before the place; the country codes as they are', async () => {
    const words = await reader('sw');
    expect(words('14 km NW of Voi, KE')).toBe('km 14 kaskazini-magharibi mwa Voi, KE');
    expect(words('5 km N of Namanga (TZ), KE')).toBe('km 5 kaskazini mwa Namanga (TZ), KE');
    expect(words('at sea, 21 km E of Mombasa, KE')).toBe('baharini, km 21 mashariki mwa Mombasa, KE');
    expect(words('at sea, -5.0000, 45.0000')).toBe('baharini, -5.0000, 45.0000');
    expect(words('Malaba OSBP, KE')).toBe('Malaba OSBP, KE');
    expect(words('1234 km SW of Voi, KE')).toMatch(/^km 1[.,\s]?234 kusini-magharibi mwa Voi, KE$/);
  });

  it("leaves an external geocoder's address as it came", async () => {
    expect((await reader('sw'))('Moi Avenue, Nairobi, Kenya')).toBe('Moi Avenue, Nairobi, Kenya');
  });
});
