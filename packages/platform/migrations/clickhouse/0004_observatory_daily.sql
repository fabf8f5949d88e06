-- The corridor observatory's indicators per UTC day (issue 30): what the screen's and the API's
-- queries read, so that none of them reads the facts of 0003 (let alone fixes). Each row is one
-- group of one day (a place, a pair of places, a corridor; a direction; a company, 0 for none) with
-- its complete figures: how many, which trucks (a bitmap of device ids: exact distinct counts when
-- days merge into weeks and months) and the durations as a histogram of whole minutes (each duration
-- rounded up to its minute: medians and p90 are exact over those minutes, and "over a threshold of
-- T minutes" is exact, as a duration over T minutes is one whose minute is above T).
-- Each group is there per company (company_id; 0: trucks of no company) and once more for every
-- company together (company_id 18446744073709551615, the largest UInt64): the association's view,
-- the open data and the map read those alone, and a company's "others" are they less its own.
-- The rows are recomputed from the facts (FINAL) for the days new facts touched
-- (packages/platform/src/clickhouse/observatory-rollup.ts), so a fact written twice still counts
-- once: the newest computation of a group replaces the older (`version`, the ms it began).

-- Visits per place, by the day they ended.
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_visits_daily}}{{on_cluster}} (
  day Date,
  place_id String,
  place_name String,
  place_kind LowCardinality(String),
  corridor LowCardinality(String),
  direction Int8,
  company_id UInt64,
  visits UInt64,
  trucks AggregateFunction(groupBitmap, UInt64),
  minutes Map(UInt32, UInt64),
  version UInt64
) ENGINE = {{engine ReplacingMergeTree(version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (day, place_id, direction, company_id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_visits_daily{{on_cluster}} AS {{db}}.obs_visits_daily_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_visits_daily_local, cityHash64(day, place_id));

-- Legs per pair of places, by the day they arrived: the counted trips' figures, and how many were
-- counted apart, by why.
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_legs_daily}}{{on_cluster}} (
  day Date,
  corridor LowCardinality(String),
  kind LowCardinality(String),
  from_place String,
  to_place String,
  from_name String,
  to_name String,
  from_along_m Float64,
  to_along_m Float64,
  direction Int8,
  company_id UInt64,
  trips UInt64,
  trucks AggregateFunction(groupBitmap, UInt64),
  minutes Map(UInt32, UInt64),
  left_corridor UInt64,
  long_stop UInt64,
  version UInt64
) ENGINE = {{engine ReplacingMergeTree(version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (day, corridor, kind, from_place, to_place, direction, company_id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_legs_daily{{on_cluster}} AS {{db}}.obs_legs_daily_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_legs_daily_local, cityHash64(day, from_place, to_place));

-- Stops outside every authorized place, by the day they began: a histogram of their whole minutes
-- (rounded down: a stop of at least M minutes is one whose minute is M or more), so the association's
-- shortest stop that counts can change without recomputing.
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_stops_daily}}{{on_cluster}} (
  day Date,
  corridor LowCardinality(String),
  direction Int8,
  company_id UInt64,
  minutes Map(UInt32, UInt64),
  version UInt64
) ENGINE = {{engine ReplacingMergeTree(version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (day, corridor, direction, company_id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_stops_daily{{on_cluster}} AS {{db}}.obs_stops_daily_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_stops_daily_local, cityHash64(day, corridor));

-- Distance driven per day on a corridor in a direction, and by which trucks.
CREATE TABLE IF NOT EXISTS {{db}}.{{local obs_distance_daily}}{{on_cluster}} (
  day Date,
  corridor LowCardinality(String),
  direction Int8,
  company_id UInt64,
  distance_m Float64,
  trucks AggregateFunction(groupBitmap, UInt64),
  version UInt64
) ENGINE = {{engine ReplacingMergeTree(version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (day, corridor, direction, company_id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.obs_distance_daily{{on_cluster}} AS {{db}}.obs_distance_daily_local
ENGINE = Distributed({{cluster}}, {{db}}, obs_distance_daily_local, cityHash64(day, corridor));

-- The days already stored before these tables existed, from the facts (a fresh installation has
-- none): per company, then every company together, as the rollup computes them.
{{each_partition obs_visits into obs_visits_daily}}
INSERT INTO {{db}}.obs_visits_daily
SELECT toDate(exited_at) AS day, place_id, any(place_name), any(place_kind), any(corridor), direction, company_id, count(),
       groupBitmapState(device_id), sumMap(map(toUInt32(ceil(dwell_s / 60)), toUInt64(1))), 0
FROM {{db}}.obs_visits FINAL WHERE _partition_id = {partition:String} GROUP BY day, place_id, direction, company_id
UNION ALL
SELECT toDate(exited_at) AS day, place_id, any(place_name), any(place_kind), any(corridor), direction, toUInt64(18446744073709551615), count(),
       groupBitmapState(device_id), sumMap(map(toUInt32(ceil(dwell_s / 60)), toUInt64(1))), 0
FROM {{db}}.obs_visits FINAL WHERE _partition_id = {partition:String} GROUP BY day, place_id, direction;

{{each_partition obs_legs into obs_legs_daily}}
INSERT INTO {{db}}.obs_legs_daily
SELECT toDate(arrived_at) AS day, corridor, kind, from_place, to_place, any(from_name), any(to_name), any(from_along_m), any(to_along_m), direction, company_id,
       countIf(excluded = ''), groupBitmapStateIf(device_id, excluded = ''), sumMapIf(map(toUInt32(ceil(transit_s / 60)), toUInt64(1)), excluded = ''),
       countIf(excluded = 'left_corridor'), countIf(excluded = 'long_stop'), 0
FROM {{db}}.obs_legs FINAL WHERE _partition_id = {partition:String} GROUP BY day, corridor, kind, from_place, to_place, direction, company_id
UNION ALL
SELECT toDate(arrived_at) AS day, corridor, kind, from_place, to_place, any(from_name), any(to_name), any(from_along_m), any(to_along_m), direction, toUInt64(18446744073709551615),
       countIf(excluded = ''), groupBitmapStateIf(device_id, excluded = ''), sumMapIf(map(toUInt32(ceil(transit_s / 60)), toUInt64(1)), excluded = ''),
       countIf(excluded = 'left_corridor'), countIf(excluded = 'long_stop'), 0
FROM {{db}}.obs_legs FINAL WHERE _partition_id = {partition:String} GROUP BY day, corridor, kind, from_place, to_place, direction;

{{each_partition obs_stops into obs_stops_daily}}
INSERT INTO {{db}}.obs_stops_daily
SELECT toDate(started_at) AS day, corridor, direction, company_id, sumMap(map(toUInt32(floor(stop_s / 60)), toUInt64(1))), 0
FROM {{db}}.obs_stops FINAL WHERE _partition_id = {partition:String} AND area = '' GROUP BY day, corridor, direction, company_id
UNION ALL
SELECT toDate(started_at) AS day, corridor, direction, toUInt64(18446744073709551615), sumMap(map(toUInt32(floor(stop_s / 60)), toUInt64(1))), 0
FROM {{db}}.obs_stops FINAL WHERE _partition_id = {partition:String} AND area = '' GROUP BY day, corridor, direction;

{{each_partition obs_distance into obs_distance_daily}}
INSERT INTO {{db}}.obs_distance_daily
SELECT day, corridor, direction, company_id, sum(distance_m), groupBitmapState(device_id), 0
FROM {{db}}.obs_distance FINAL WHERE _partition_id = {partition:String} GROUP BY day, corridor, direction, company_id
UNION ALL
SELECT day, corridor, direction, toUInt64(18446744073709551615), sum(distance_m), groupBitmapState(device_id), 0
FROM {{db}}.obs_distance FINAL WHERE _partition_id = {partition:String} GROUP BY day, corridor, direction;
