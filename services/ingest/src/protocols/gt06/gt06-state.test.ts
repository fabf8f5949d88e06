import { describe } from 'vitest';
import { hex, itDecodes, type DecodeCase } from '../../../test/protocol-helpers';
import { decodeGt06, type Gt06Session } from './index';

/*
 * Real device messages from Traccar's public test data (traccar/traccar
 * src/test/java/org/traccar/protocol/Gt06ProtocolDecoderTest.java, 2024 version). Traccar's tests
 * assert one value per message at most (named in the case title); the other expected values were
 * read off the bytes by hand per the Concox layouts (latitude/longitude = raw / 30000 / 60, speed
 * km/h, course = low 10 bits of the status word, times as sent: a fresh session has no time zone)
 * and cross-checked against the cell's country code (e.g. MCC 724 Brazil, 639 Kenya, 640 Tanzania
 * with fixes in those countries). Some captures were edited by hand upstream and carry a wrong
 * CRC: those cases expect crcValid=false.
 */

/** Each case decodes in a fresh session of a known device (the IMEI given, or a placeholder), with a fixed server clock. */
function run(cases: DecodeCase[]): void {
  itDecodes(cases, (frame, imei) => {
    const session: Gt06Session = { deviceId: imei ?? '123456789012345', now: () => new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) };
    return decodeGt06(hex(frame), session);
  });
}

describe('gt06 state records: status, heartbeat, cells, Wi-Fi, information, OBD, peripherals', () => {
  run([
    [
      '0x13 status (length miscounted by two): terminal info, voltage level, GSM signal',
      '787808134606020002044dc5050d0a',
      { kind: 'heartbeat', ack: '78780513044d06f90d0a', attrs: { ignition: true, charge: true, batteryLevel: 100, rssi: 2 } },
    ],
    [
      '0x13 status: blocked (oil cut), charging',
      '78780a13c40604000201298f5b0d0a',
      { kind: 'heartbeat', attrs: { blocked: true, charge: true, ignition: false, batteryLevel: 100, rssi: 4 } },
    ],
    [
      '0x13 status, alarm byte 0x04: geofence enter',
      '78780a130604ea04000006bc8a0d0a',
      { kind: 'alarm', events: ['geofenceEnter'], attrs: { ignition: true, batteryLevel: 66 } },
    ],
    [
      '0x13 long form: battery level (Traccar asserts 6) and temperature',
      '7878151330802b00000642014f0008720000802b5ee4d4c90d0a',
      { kind: 'heartbeat', attrs: { batteryLevel: 6, temp1: 4.3 } },
    ],
    [
      '0x13 OBD6 (length 0x13): satellites, power 0.01 V (Traccar asserts power 3.67)',
      '7878131302801900002e42016f000000003a0177ef180d0a',
      { kind: 'heartbeat', attrs: { power: 3.67, batteryLevel: 46, ignition: true, rssi: 25 } },
    ],
    [
      '0x13 OBD6 working mode 4: temperature (Traccar asserts temp1 28.4)',
      '7878131340b2fa000201040000000000011c00400e550d0a',
      { kind: 'heartbeat', attrs: { temp1: 28.4 } },
    ],
    [
      '0x23 heartbeat (GK310): battery volts and GSM signal',
      '78780b23c00122040001000818720d0a',
      { kind: 'heartbeat', ack: '787805230008f29e0d0a', attrs: { battery: 2.9, rssi: 4, ignition: false, armed: false } },
    ],
    [
      '0x36 Jimi 4G status modules: battery volts (Traccar asserts 4.02), battery %',
      '787817360005040002003201010018020192006a015f0324aeaf0d0a',
      { kind: 'state', attrs: { battery: 4.02, batteryLevel: 95, startupStatus: 1 } },
    ],
    [
      '0x19 cell + status: SOS',
      '78781219028f0a29e10036f12003040102000875dc0d0a',
      { kind: 'alarm', events: ['sos'], attrs: { mcc: 655, mnc: 10, lac: 10721, cid: 14065, batteryLevel: 50 } },
    ],
    [
      '0x19 cell + status: low battery (Traccar asserts ALARM_LOW_BATTERY; the capture CRC is wrong)',
      '78781219012ed042cc00954d00040419000056fe290d0a',
      { kind: 'alarm', crc: false, events: ['lowBattery'], attrs: { mcc: 302, mnc: 208 } },
    ],
    [
      '0xA5 4G cell alarm: tampering (Traccar asserts ALARM_TAMPERING)',
      '787819a5012ed0000075df000000000098661502050413000019a12b0d0a',
      { kind: 'alarm', events: ['tampering'], attrs: { mcc: 302, mnc: 208, lac: 30175, cid: 9987605 } },
    ],
    [
      '0xA5 4G cell alarm packet without an alarm',
      '787819a501cc0000009191000000000906170304050400010005f44d0d0a',
      { kind: 'state', attrs: { mcc: 460, lac: 37265, cid: 151394051, charge: true } },
    ],
    [
      '0xA7 4G cell for an address request',
      '78782ba701cc000000919100000000090617032b3836313832323038343735363200000000000000000100049fb60d0a',
      { kind: 'state', attrs: { mcc: 460, mnc: 0 } },
    ],
    [
      '0xA3 with an all-zero GPS block and a misread cell: nothing but the device time',
      '78782ca3110b10081336f000000000000000000004003901cc0000009191000000000906170304050400010003e0940d0a',
      { kind: 'heartbeat', dt: '2017-11-16T08:19:54.000Z' },
    ],
    [
      '0x28 seven cells: serving cell and the list',
      '78783b2810010d02020201cc00287d001f713e287d001f7231287d001e232d287d001f4018000000000000000000000000000000000000ff00020005b14b0d0a',
      {
        kind: 'state',
        dt: '2016-01-13T02:02:02.000Z',
        attrs: {
          mcc: 460,
          mnc: 0,
          lac: 10365,
          cid: 8049,
          cells: '460/0/10365/8049/-62 460/0/10365/8050/-49 460/0/10365/7715/-45 460/0/10365/8000/-24',
        },
      },
    ],
    [
      '0x28 one cell',
      '78783b281108111002050136041bcf0000bf09000000000000000000000000000000000000000000000000000000000000000000000000ff00020007d3280d0a',
      { kind: 'state', dt: '2017-08-17T16:02:05.000Z', attrs: { mcc: 310, mnc: 4, lac: 7119, cid: 191 } },
    ],
    [
      '0x24 WANWAY_S20 (length 0x31): timing advance first, cell count',
      '787831241603060c231e000194620213ee00606a3413ee0060692e000000000000000000000000000000000000000000003a0cb70d0a',
      { kind: 'state', dt: '2022-03-06T12:35:30.000Z', attrs: { cells: '404/98/5102/24682/-52 404/98/5102/24681/-46' } },
    ],
    [
      '0x18 seven cells (LBS extend)',
      '78783b18100c0f1201010195271784005ab63617840002fa47178400ff8f4817840019f3491784005ab54b178400ff8e4c17840019f24cff0002012287c80d0a',
      { kind: 'state', dt: '2016-12-15T18:01:01.000Z', attrs: { mcc: 405, mnc: 39, lac: 6020, cid: 23222 } },
    ],
    [
      '0x2C cells + Wi-Fi',
      '7878412c11030b011c1f013604cb8a00b17754cb8a00bef357cb8a00b73f5fcb8900b0e25fcb8900b6655fcb8a00b74960cb8a00b178620701001801eb40393800bbbde10d0a',
      { kind: 'state', dt: '2017-03-11T01:28:31.000Z', attrs: { mcc: 310, mnc: 4, lac: 52106, cid: 45431, wifi: '00:18:01:eb:40:39/56' } },
    ],
    [
      '0xA1 4G cells',
      '78786ca1110b0413093801cc01000025fc000000000618c10201000025fc000000000618c10201000025fc000000000618c10201000025fc000000000618c10201000025fc000000000618c10201000025fc000000000618c10201000025fc000000000618c10201ff0002000541d70d0a',
      { kind: 'state', dt: '2017-11-04T19:09:56.000Z', attrs: { mcc: 460, mnc: 1, lac: 9724, cid: 102285570 } },
    ],
    [
      '0xA2 4G cells + Wi-Fi',
      '7878a3a2110b0603201501cc010000254e000000000615f804000000254e000000000615f804000000254e000000000615f804000000254e000000000615f804000000254e000000000615f804000000254e000000000615f804000000254e000000000615f80400ff08f483cd4df4c0d750bd5f8bc5cecfb0d59dafb459cda8574e8424c6cc50bd5f6c7e1cc9b0d59d8aa718c90087363040e0c83496727b4de4c7002919670d0a',
      { kind: 'state', dt: '2017-11-06T03:32:21.000Z', attrs: { mcc: 460, mnc: 1, lac: 9550, cid: 102103044 } },
    ],
    [
      '0x69 Wi-Fi: the length byte counts access points, no serial or CRC, answered with the time',
      '787803691604130318491475905bd30e25001e10bbf7635d14759006e626560501cc0028660f213228660f1f2828660ea81e286610731428660f20140d0a',
      {
        kind: 'state',
        crc: true,
        ack: '787800691604130318490d0a',
        dt: '2016-04-13T03:18:49.000Z',
        attrs: { mcc: 460, wifi: '14:75:90:5b:d3:0e/37 00:1e:10:bb:f7:63/93 14:75:90:06:e6:26/86' },
      },
    ],
    [
      '0x69 without access points (length byte 0)',
      '7878006919012105090303028f01007549e05a00bc9c5c5a007a8d1a5a0d0a',
      { kind: 'state', ack: '787800691901210509030d0a', dt: '2019-01-21T05:09:03.000Z', attrs: { mcc: 655, mnc: 1, lac: 117, cid: 18912 } },
    ],
    [
      '0x17 Wi-Fi form (not RFID): cells',
      '787800171710231108290200cc080c4e2fa5640c4e2fa5640d0a',
      { kind: 'state', ack: '787800171710231108290d0a', dt: '2017-10-23T11:08:29.000Z', attrs: { mcc: 204, mnc: 8 } },
    ],
    [
      '0xF3 Wi-Fi list (no cells, no reply)',
      '787844f3140c0b0a262a070000dc9fdb1c1d760000c83a3569a37100008825937287000000ec41180c8209000088c39749553700003891d5604d6300003891d5604d68002ec4230d0a',
      {
        kind: 'state',
        ack: null,
        dt: '2020-12-11T10:38:42.000Z',
        attrs: {
          wifi: 'dc:9f:db:1c:1d:76 c8:3a:35:69:a3:71 88:25:93:72:87:00 ec:41:18:0c:82:09 88:c3:97:49:55:37 38:91:d5:60:4d:63 38:91:d5:60:4d:68',
        },
      },
    ],
    ['0x94 (7878): external voltage', '7878079404eb001c705d0d0a', { kind: 'state', ack: null, attrs: { power: 12.59 } }],
    ['0x94 sub-type 0x00: external voltage as adc1', '79790008940000ed0289d6860d0a', { kind: 'state', ack: null, attrs: { adc1: 2.37 } }],
    [
      '0x94 sub-type 0x04: alarm and status words from the text',
      '797900849404414c4d313d43353b414c4d323d43433b414c4d333d35433b535441313d43303b4459443d30313b534f533d303133323838333730302c2c3b43454e5445523d303133323838333730303b46454e43453d46656e63652c4f46462c302c302e3030303030302c302e3030303030302c3330302c494e206f72204f55542c313b00b79d120d0a',
      { kind: 'state', attrs: { alarm1Status: 197, alarm2Status: 204, alarm3Status: 92, otherStatus: 192, engineStatus: 1 } },
    ],
    [
      '0x94 sub-type 0x05: door with the device time (Traccar asserts door true)',
      '7979000d940516090908081c030defbd2d0d0a',
      { kind: 'state', dt: '2022-09-09T08:08:28.000Z', attrs: { door: true, io1: false } },
    ],
    [
      '0x94 sub-type 0x0A: ICCID (Traccar asserts 8966051912408052452)',
      '79790020940a035985708236675805200502187214018966051912408052452f000355560d0a',
      { kind: 'state', attrs: { iccid: '8966051912408052452' } },
    ],
    [
      '0x94 sub-type 0x0B: network technology (Traccar asserts 4G)',
      '79790007940b010a0b5ace0d0a',
      { kind: 'state', attrs: { networkTechnology: '4G' } },
    ],
    [
      '0x94 sub-type 0x0B with two bytes: power (Traccar asserts 7.39)',
      '79790008940b02e3048614200d0a',
      { kind: 'state', attrs: { power: 7.39 } },
    ],
    [
      '0x94 sub-type 0x0D: fuel sensor text after a time (temperature, fuel)',
      '7979003f940d110315102a202141494f494c2c30322c3030382e3239302c3032392e3630302c3531394a2c303430302c3030382e3433302c302c30302c4142001678ea0d0a',
      { kind: 'state', attrs: { temp1: 29.6, fuel: 8.43 } },
    ],
    [
      '0x94 sub-type 0x0D: fuel sensor text alone',
      '79790039940d2141494f494c2c30322c3030322e3732302c3032392e3530302c3532344a2c303130302c3030332e3430302c302c30302c393309ad72000d0a',
      { kind: 'state', attrs: { temp1: 29.5, fuel: 3.4 } },
    ],
    [
      '0x94 sub-type 0x1B: serial text (Traccar asserts RFID:008FB2BEBA39)',
      '79790019941b524649443a3030384642324245424133390d0a000c14930d0a',
      { kind: 'state', attrs: { serial: 'RFID:008FB2BEBA39' } },
    ],
    [
      '0x94 sub-type 0x1B: driver id (Traccar asserts 4277efef)',
      '7979000e941b02084277efef350303eadaed0d0a',
      { kind: 'state', attrs: { driverUniqueId: '4277efef' } },
    ],
    [
      '0x94 sub-type 0x1E: temperature and humidity (Traccar asserts humidity 75)',
      '7979000e941e000000d5000002ee00f59b850d0a',
      { kind: 'state', attrs: { temp1: 21.3, humidity: 75 } },
    ],
    [
      '0x8C OBD (7979): odometer, fuel, coolant, speed, rpm, hours',
      '797900cd8c15010d08200d013137333d302c3232333d312c3238333d30303032373464382c3436333d30303030303239352c3437333d30303030363333622c3438333d30303030303036372c3242333d30303030303030302c3244333d30303030316332302c3335333d30303030323133342c3336333d30303033626430382c3339333d30303030303336622c3330333d30303030303539362c3439333d30303030306563382c3441333d2c3341333d30303030303430352c3530333d30303030cb03850c3603c025af5414a6003fc5940d0a',
      {
        kind: 'state',
        dt: '2021-01-13T08:32:13.000Z',
        attrs: { ignition: true, odometer: 1609.84, coolantTemp: 72, obdSpeed: 85, rpm: 2450 },
      },
    ],
    [
      '0xF2 peripheral: external battery',
      '79790016f26718e430000c0a470000000010020000000024bff50d0a',
      {
        kind: 'state',
        ack: '787805f20024cc230d0a',
        dt: '2024-10-23T11:55:28.000Z',
        attrs: { externalBatteryLevel: 71, externalBatteryCycles: 0 },
      },
    ],
    [
      '0xF2 peripheral: BLE button event',
      '79790037f26718e389000b0a0423027aca200c465a60000a001d01c4a82828ccfe0000024254425554544f4e2c412c53233136382c35340016a1eb0d0a',
      { kind: 'state', attrs: { mac: 'c4a82828ccfe', event: 0, dataType: 2, dataDetails: '4254425554544f4e2c412c53233136382c3534' } },
    ],
    [
      '0x70 modular: BLE tag temperature (Traccar asserts tag1Temp 29.0)',
      '7979001f70002c00046919c641007f000ec4a82841074a7fff64012201dc071ea430360d0a',
      { kind: 'state', attrs: { tag1Id: 'c4a82841074a', tag1Temp: 29, tag1BatteryLevel: 100 } },
    ],
    [
      '0x70 modular with a zero GPS time: no position',
      '797900b2700000000102003500010400330012000000000000000000000000000000000000003400061354a48dff00003400061154a48e56000011000a000000000000000000000001000803537601000282180002000802140743044211890003000a89340752000038689636001800020182002b000116002c000454a4ff350009000100000a0001010028000100002e000400000000002a00010000290004000000000030000a000101680014016802d00000b38f0d0a',
      { kind: 'state', attrs: { battery: 3.86, iccid: '89340752000038689636' } },
    ],
    [
      '0x33 AZ735 alarm (7979) without GPS: armed',
      '797900143311070609020b00000000a0030046000109e4610d0a',
      { kind: 'state', ack: '797900053301094cf30d0a', dt: '2017-07-06T09:02:11.000Z', attrs: { armed: true, status: 160 } },
    ],
    [
      '0x32 AZ735 (7979) without GPS: cell and status with the device time',
      '79790045321106170c1b13000901fe0a007c0009112424007c000912230081004efe1e00c500100f120000000000000000000000000000000000000710bef565574e37000000b26f140d0a',
      { kind: 'state', dt: '2017-06-23T12:27:19.000Z', attrs: { mcc: 510, mnc: 10, lac: 124, cid: 2321 } },
    ],
    [
      '0x95 JC100 without GPS: general alarm with the device time',
      '78780c95130a071223200100013ad10d0a',
      { kind: 'alarm', events: ['general'], dt: '2019-10-07T18:35:32.000Z', attrs: { event: 1 } },
    ],
    [
      '0x95 JC100 without GPS: hard acceleration (Traccar asserts ALARM_ACCELERATION)',
      '78780c95130a0209321c90000112800d0a',
      { kind: 'alarm', events: ['hardAcceleration'], dt: '2019-10-02T09:50:28.000Z' },
    ],
    [
      '0x8A time request: answered with the server UTC time',
      '7878058a000688290d0a',
      { kind: 'heartbeat', ack: '78780b8a1801020304050000e9050d0a' },
    ],
  ]);
});

describe('gt06 command replies: the text as attributes.result', () => {
  run([
    [
      '0x15 reply: ICCID is device state (Traccar asserts 89882390000097302650)',
      '7878281520000000003c49434349443a38393838323339303030303039373330323635303e00020d446f260d0a',
      { kind: 'state', attrs: { iccid: '89882390000097302650' } },
    ],
    [
      '0x15 reply to engine stop: result, acknowledged',
      '78782d152500000000437574206f666620746865206675656c20737570706c793a2053756363657373210002013b898a0d0a',
      { kind: 'result', result: 'Cut off the fuel supply: Success!', ack: '78780515013bb8290d0a' },
    ],
    [
      '0x15 reply to engine resume',
      '787829152100000000526573746f7265206675656c20737570706c793a2053756363657373210002014077ce0d0a',
      { kind: 'result', result: 'Restore fuel supply: Success!' },
    ],
    [
      '0x15 reply with a zero length byte: the text up to the language word',
      '7878661500000000004459443d537563636573732100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000010009e82b0d0a',
      { kind: 'result', result: 'DYD=Success!' },
    ],
    [
      '0x21 reply in UTF-16BE (7979, no reply)',
      '797900262100000000020043006f006d006d0061006e00640020006500720072006f0072002100236e850d0a',
      { kind: 'result', ack: null, result: 'Command error!' },
    ],
    [
      '0x21 reply in ASCII',
      '7979006f210000000001426174746572793a352e3536562c4e4f524d414c3b20475052532a4c696e6b2055702047534d205369676e616c204c6576656c3a5374726f6e673b204750533a4f46463b2020204c4f434b3a4f46463b204254204d41433a4234413832383034343436323b007260880d0a',
      {
        kind: 'result',
        crc: false,
        result: 'Battery:5.56V,NORMAL; GPRS*Link Up GSM Signal Level:Strong; GPS:OFF;   LOCK:OFF; BT MAC:B4A828044462;',
      },
    ],
    [
      '0x9B serial data, printable (Traccar asserts D7520A62)',
      '797900109b0344373532304136320d0a000f87f00d0a',
      { kind: 'result', ack: null, result: 'D7520A62' },
    ],
    ['0x9B serial data, binary as hex (Traccar asserts 80d600)', '797900099b0380d600046f91e90d0a', { kind: 'result', result: '80d600' }],
    [
      '0x9B serial data with bytes past ASCII as hex (Traccar asserts 32382e33a1e60d0a)',
      '7979000e9b0332382e33a1e60d0a0289be490d0a',
      { kind: 'result', result: '32382e33a1e60d0a' },
    ],
  ]);
});

describe('gt06 refused message types: ignored with their reason', () => {
  run([
    [
      'an empty 0x12 (an acknowledgement echoed back): no reply',
      '787805120099abec0d0a',
      { kind: 'ignored', ack: null, why: 'empty packet' },
    ],
    [
      '0x19 SPACE10X several-cell form: layout not public, no reply (as Traccar)',
      '7878171915061810051a01f90101700d08c8f50c0000065494ae0d0a',
      { kind: 'ignored', ack: null, why: 'SPACE10X' },
    ],
    [
      '0x35 X1 photo: not supported, no reply',
      '78781f3511061a0b24330503107d06084889cb01000100000cfa20e3acd301333fcb0d0a',
      { kind: 'ignored', ack: null, why: 'photo' },
    ],
    [
      '0x66 OBD PID list (7979): layout not public',
      '797900a56615010d081f3b012c323131303d30303033643238342c323130353d30303030316332302c323130623d30303030326537632c323130633d30303033643238342c323130663d30303030306331632c323130643d30303030323166632c323161363d30303030303030302c323130343d30303030306531302c323132663d30303030303030302c323134353d30303030303030302ccb03851f5f03c020525514a7003e216a0d0a',
      { kind: 'ignored', ack: null, why: 'PID' },
    ],
    [
      '0x81 command packet echoed by the device: no reply',
      '78788b818300000000534545464e2626004f04220045042626262b37393035343031353534362626262626260410041b0415041a04210415041926262b373930363433333031313526260410043d044f26262b373936303437383430363426260412043e0432043026262b373932383834373738383126262626262626262626262626262626232300020022155d0d0a',
      { kind: 'ignored', ack: null, why: 'echoed' },
    ],
    ['0x84 (7979): not described publicly', '79790005840016bb1a0d0a', { kind: 'ignored', ack: null, why: 'not described' }],
    [
      '0x1F: not described publicly, acknowledged so the device moves on',
      '78780d1f000000000000000200b196a20d0a',
      { kind: 'ignored', ack: '7878051f00b1f9d90d0a', why: 'not described' },
    ],
    ['0x08 with a length of 1: no serial or CRC', '787801080d0a', { kind: 'ignored', ack: null, crc: false, why: 'without a length' }],
  ]);
});
