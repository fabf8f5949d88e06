-- The rows of positions and events tables made before numeric position ids (2026-11-24), in the
-- layout of 0001. Before applying 0001 to an installation from before versioned migrations, the
-- migrate step renamed such tables to positions_before_0001 and events_before_0001 (a positions
-- table with String ids or without arrival_rank; an events table with a String position_id); on
-- every other installation these tables do not exist and there is nothing to copy (never on a
-- cluster: cluster mode came after numeric ids).
-- Each INSERT runs once per partition of its source, the target's partition emptied first, and
-- every partition done is recorded, so a migrate step stopped half way resumes where it stopped.

-- Ids derived from device, fix second and kind (a state record is marked `outdated`); fix times
-- truncated to the second (rows of one device within one second collapse, as they would on
-- arrival now); devices outside 1..1048575 and fixes before 2000 have no numeric id and are left out.
{{each_partition positions_before_0001 into positions}}
INSERT INTO {{db}}.positions (id, device_id, unique_id, protocol, fix_time, device_time, server_time, valid,
  latitude, longitude, speed, course, altitude, accuracy, satellites, hdop, ignition, odometer, power,
  battery, alarm, crc_valid, raw_frame_id, attributes)
SELECT ((toUInt64(intDiv(toUnixTimestamp64Milli(fix_time), 1000) - 946684800) * 2
         + if(JSONExtractBool(attributes, 'outdated'), 1, 0)) * 1048576 + device_id),
  device_id, unique_id, protocol, toStartOfSecond(fix_time), device_time, server_time, valid,
  latitude, longitude, speed, course, altitude, accuracy, satellites, hdop, ignition, odometer, power,
  battery, alarm, crc_valid, raw_frame_id, attributes
FROM {{db}}.positions_before_0001
WHERE _partition_id = {partition:String}
  AND device_id BETWEEN 1 AND 1048575
  AND fix_time >= fromUnixTimestamp64Milli(946684800000, 'UTC');

-- A position id '<deviceId>-<fix ms>' becomes the numeric id of that fix; other values become NULL.
{{each_partition events_before_0001 into events}}
INSERT INTO {{db}}.events (id, type, event_time, device_id, position_id, journey_id, geofence_id,
  latitude, longitude, attributes, inserted_at)
SELECT id, type, event_time, device_id,
  if(match(ifNull(position_id, ''), '^[0-9]+-[0-9]{12,}$'),
     ((toUInt64(intDiv(toInt64(splitByChar('-', position_id)[2]), 1000) - 946684800) * 2) * 1048576
      + toUInt64(splitByChar('-', position_id)[1])),
     NULL),
  journey_id, geofence_id, latitude, longitude, attributes, inserted_at
FROM {{db}}.events_before_0001
WHERE _partition_id = {partition:String};

DROP TABLE IF EXISTS {{db}}.positions_before_0001{{on_cluster}};

DROP TABLE IF EXISTS {{db}}.events_before_0001{{on_cluster}};
