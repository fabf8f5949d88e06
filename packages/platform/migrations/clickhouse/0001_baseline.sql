-- The analytics tables exactly as the services created them before migrations were versioned
-- (main of 2026-11-28: platform clickhouse/positions.ts and events.ts, ingest archive/raw-frames-table.ts).
-- An installation made before then already has these tables: every statement is IF NOT EXISTS, so
-- applying this file to it creates nothing. (Tables of the layouts before numeric position ids are
-- renamed to <name>_before_0001 first, and 0002 copies their rows.)
-- Placeholders and cluster mode: README.md beside this file.

-- Positions. ReplacingMergeTree keyed by (device_id, fix_time, id): the id (contracts position-id.ts)
-- is derived from the device, the whole-second fix time and whether the row is a fix or a state
-- record, so a redelivered or resent position collapses into one row. The FIRST arrival of a key is
-- kept (version arrival_rank, larger for an earlier server time; 4102444800000 is 2100-01-01 in
-- epoch ms): its server-side accumulators were computed in order. Reads use FINAL.
CREATE TABLE IF NOT EXISTS {{db}}.{{local positions}}{{on_cluster}} (
  id UInt64,
  device_id UInt64,
  unique_id String,
  protocol LowCardinality(String),
  fix_time DateTime64(3, 'UTC'),
  device_time DateTime64(3, 'UTC'),
  server_time DateTime64(3, 'UTC'),
  valid Bool,
  latitude Float64,
  longitude Float64,
  speed Float32,
  course Float32,
  altitude Nullable(Float32),
  accuracy Nullable(Float32),
  satellites Nullable(UInt16),
  hdop Nullable(Float32),
  ignition Nullable(Bool),
  odometer Nullable(Float64),
  power Nullable(Float32),
  battery Nullable(Float32),
  alarm Nullable(String),
  crc_valid Bool,
  raw_frame_id Nullable(String),
  attributes String,
  arrival_rank UInt64 MATERIALIZED toUInt64(4102444800000 - toUnixTimestamp64Milli(server_time))
) ENGINE = {{engine ReplacingMergeTree(arrival_rank)}}
PARTITION BY toYYYYMM(fix_time)
ORDER BY (device_id, fix_time, id);

-- On a cluster, the table the services read and write: it sends each row to the shard its device
-- hashes to, so a device's rows stay together (FINAL and window functions run per shard).
{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.positions{{on_cluster}} AS {{db}}.positions_local
ENGINE = Distributed({{cluster}}, {{db}}, positions_local, cityHash64(device_id));

-- Events (alarms, geofence enter/exit, journey flags, device events), deduplicated by id.
CREATE TABLE IF NOT EXISTS {{db}}.{{local events}}{{on_cluster}} (
  id String,
  type LowCardinality(String),
  event_time DateTime64(3, 'UTC'),
  device_id UInt64,
  position_id Nullable(UInt64),
  journey_id Nullable(String),
  geofence_id Nullable(String),
  latitude Nullable(Float64),
  longitude Nullable(Float64),
  attributes String,
  inserted_at DateTime64(3, 'UTC') DEFAULT now64(3)
) ENGINE = {{engine ReplacingMergeTree(inserted_at)}}
PARTITION BY toYYYYMM(event_time)
ORDER BY (device_id, event_time, id);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.events{{on_cluster}} AS {{db}}.events_local
ENGINE = Distributed({{cluster}}, {{db}}, events_local, cityHash64(device_id));

-- Raw frames: every frame a device port received, as hex, with what decoding made of it (ingest's
-- archive; `pnpm decode` replays them). Expired by whole daily parts; the migrate step sets the TTL
-- to RAW_FRAME_TTL_DAYS when that is set and differs.
CREATE TABLE IF NOT EXISTS {{db}}.{{local raw_frames}}{{on_cluster}} (
  id String,
  received_at DateTime64(3, 'UTC'),
  protocol LowCardinality(String),
  transport LowCardinality(String),
  device_id UInt64,
  unique_id String,
  remote_address String,
  frame_hex String,
  outcome LowCardinality(String),
  error_reason String,
  positions UInt16,
  crc_valid Bool
) ENGINE = {{engine MergeTree}}
PARTITION BY toYYYYMMDD(received_at)
ORDER BY (device_id, unique_id, received_at)
TTL toDateTime(received_at) + INTERVAL 30 DAY
SETTINGS ttl_only_drop_parts = 1;

-- Frames of unidentified devices have device_id 0: sharded by the unique id the device sent.
{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.raw_frames{{on_cluster}} AS {{db}}.raw_frames_local
ENGINE = Distributed({{cluster}}, {{db}}, raw_frames_local, cityHash64(unique_id));
