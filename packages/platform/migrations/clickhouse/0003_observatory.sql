-- The corridor observatory's facts (issue 30): what the geofence service's observatory tracker
-- derives from each truck's fixes, one row per visit of a place, per trip between two places, per
-- stop and per device-day of distance. The indicators (transit and dwell medians, p90, counts,
-- stops per 1,000 km by week and month) are aggregations of these rows, so no query reads fixes:
-- 10,000 trucks over 90 days are about 2.5 M visits and legs against 100 M positions.
-- Every fact has a deterministic identity (the ORDER BY key): a redelivered fix recomputes the same
-- rows and ReplacingMergeTree keeps one (readers use FINAL). `company_id` is the device's company
-- when the fact was made (0: none); `direction` is 1 along the corridor's line (from its port
-- inland: Mombasa → Malaba, Dar es Salaam → Rusumo), -1 against it, 0 unknown.

-- A visit: a stay at a border post, port, inland depot, weighbridge or checkpoint (a shared
-- geofence of that kind) with the geofence service's enter and exit rules; `direction` is the way
-- the truck came in.
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_visits}}{{on_cluster}} (
  device_id UInt64,
  company_id UInt64,
  place_id String,
  place_name String,
  place_kind LowCardinality(String),
  corridor LowCardinality(String),
  direction Int8,
  entered_at DateTime64(3, 'UTC'),
  exited_at DateTime64(3, 'UTC'),
  dwell_s Float64
) ENGINE = {{engine ReplacingMergeTree}}
PARTITION BY toYYYYMM(exited_at)
ORDER BY (place_id, exited_at, device_id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_visits{{on_cluster}} AS {{db}}.obs_visits_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_visits_local, cityHash64(device_id));

-- A leg: from leaving one place to reaching the next one on the same corridor (kind 'segment'),
-- or from leaving one end of the corridor to reaching the other (kind 'corridor'). `excluded` says
-- why a leg is counted apart: 'left_corridor', 'long_stop' (stopped, or silent, more than a day),
-- 'skipped_place' (the next place reached was not the adjacent one); '' for a counted trip.
-- `from_along_m` and `to_along_m` place the two ends on the corridor's line (metres from its start).
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_legs}}{{on_cluster}} (
  device_id UInt64,
  company_id UInt64,
  corridor LowCardinality(String),
  kind LowCardinality(String),
  from_place String,
  to_place String,
  from_name String,
  to_name String,
  from_along_m Float64,
  to_along_m Float64,
  direction Int8,
  departed_at DateTime64(3, 'UTC'),
  arrived_at DateTime64(3, 'UTC'),
  transit_s Float64,
  excluded LowCardinality(String)
) ENGINE = {{engine ReplacingMergeTree}}
PARTITION BY toYYYYMM(arrived_at)
ORDER BY (corridor, kind, from_place, to_place, arrived_at, device_id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_legs{{on_cluster}} AS {{db}}.obs_legs_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_legs_local, cityHash64(device_id));

-- A stop: five minutes or more below 5 km/h within 200 m. `area` is the authorized place or truck
-- park it was in ('' outside all of them: what "stops outside authorized places" counts).
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_stops}}{{on_cluster}} (
  device_id UInt64,
  company_id UInt64,
  corridor LowCardinality(String),
  direction Int8,
  started_at DateTime64(3, 'UTC'),
  ended_at DateTime64(3, 'UTC'),
  stop_s Float64,
  latitude Float64,
  longitude Float64,
  area String
) ENGINE = {{engine ReplacingMergeTree}}
PARTITION BY toYYYYMM(started_at)
ORDER BY (started_at, device_id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_stops{{on_cluster}} AS {{db}}.obs_stops_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_stops_local, cityHash64(device_id));

-- Distance driven per device and UTC day, on a corridor in a direction ('' and 0 off both
-- corridors): the tracker rewrites the running total of the day, the largest `version` (the fix
-- time in ms) is the one kept.
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_distance}}{{on_cluster}} (
  day Date,
  device_id UInt64,
  company_id UInt64,
  corridor LowCardinality(String),
  direction Int8,
  distance_m Float64,
  version UInt64
) ENGINE = {{engine ReplacingMergeTree(version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (day, device_id, corridor, direction);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_distance{{on_cluster}} AS {{db}}.obs_distance_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_distance_local, cityHash64(device_id));
