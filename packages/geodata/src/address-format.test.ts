import { describe, expect, it } from 'vitest';
import { formatAddress, parseAddress } from './address-format';
import { offlineGeocoder } from './reverse-geocoder';

describe('the words of an offline address', () => {
  it('gives back the parts of every form the geocoder writes', () => {
    expect(parseAddress('14 km NW of Voi, KE')).toEqual({
      kind: 'place',
      atSea: false,
      km: 14,
      compass: 'NW',
      place: 'Voi',
      placeCountry: 'KE',
      country: null,
    });
    expect(parseAddress('Malaba OSBP, KE')).toEqual({
      kind: 'place',
      atSea: false,
      km: null,
      compass: null,
      place: 'Malaba OSBP',
      placeCountry: 'KE',
      country: null,
    });
    expect(parseAddress('5 km N of Namanga (TZ), KE')).toEqual({
      kind: 'place',
      atSea: false,
      km: 5,
      compass: 'N',
      place: 'Namanga',
      placeCountry: 'TZ',
      country: 'KE',
    });
    expect(parseAddress('at sea, 21 km E of Mombasa, KE')).toEqual({
      kind: 'place',
      atSea: true,
      km: 21,
      compass: 'E',
      place: 'Mombasa',
      placeCountry: 'KE',
      country: null,
    });
    expect(parseAddress('at sea, -5.0000, 45.0000')).toEqual({
      kind: 'coordinates',
      atSea: true,
      latitude: '-5.0000',
      longitude: '45.0000',
      country: null,
    });
    expect(parseAddress('0.5000, 37.5000, KE')).toEqual({
      kind: 'coordinates',
      atSea: false,
      latitude: '0.5000',
      longitude: '37.5000',
      country: 'KE',
    });
    expect(parseAddress('Dar es Salaam, TZ')).toMatchObject({ place: 'Dar es Salaam', placeCountry: 'TZ' });
  });

  it("leaves any other text alone (an external geocoder's address)", () => {
    expect(parseAddress('Moi Avenue, Nairobi')).toBeNull();
    expect(parseAddress('')).toBeNull();
  });

  it("reads every address the geocoder writes over the corridors' region back into the geocoder's own parts", () => {
    const geocoder = offlineGeocoder();
    let checked = 0;
    for (let lat = -12; lat <= 5; lat += 0.37) {
      for (let lon = 28; lon <= 45; lon += 0.41) {
        const r = geocoder.reverse(lat, lon);
        const parts = parseAddress(r.address);
        if (!parts) throw new Error(`${r.address} does not parse`);
        expect(formatAddress(parts)).toBe(r.address);
        if (parts.kind === 'place') {
          expect([parts.place, parts.placeCountry, parts.compass], r.address).toEqual([r.place!.name, r.place!.country, r.compass]);
          if (parts.km !== null) expect(parts.km).toBe(Math.round(r.distanceMetres! / 1000));
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1500);
  });
});
