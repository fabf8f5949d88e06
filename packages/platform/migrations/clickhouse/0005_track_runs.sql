-- The reports' lean track kept as runs (issue 28): per device and UTC day, each run of consecutive
-- fixes with the same position, speed, ignition and `motion` (after a redelivered position is kept
-- once, by its first arrival) as one element: its values once and the whole seconds (and kind bit)
-- of its fixes. A trips or stops report reads a run's first fixes, two more and its last instead of
-- every fix (ops-api clickhouse/report-track-runs.ts), so a parked day costs a few rows, not 2,880.
-- One row per device and day: a newer computation (`version`) replaces the whole day.
-- `version` is the newest `track_touched` mark the computation covered (0: none); a day marked
-- since is stale and read from the positions until it is computed again. A day is first computed
-- once it has ended (ops-api's background look, REPORT_TRACK_RUNS_S).
CREATE TABLE IF NOT EXISTS {{db}}.{{local track_runs}}{{on_cluster}} (
  device_id UInt64,
  day Date,
  version UInt64,
  latitude Array(Float64),
  longitude Array(Float64),
  speed Array(Float32),
  ignition Array(Int8),
  motion Array(Int8),
  times Array(Array(UInt32)),
  kinds Array(Array(UInt8))
) ENGINE = {{engine ReplacingMergeTree(version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (device_id, day);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.track_runs{{on_cluster}} AS {{db}}.track_runs_local
ENGINE = Distributed({{cluster}}, {{db}}, track_runs_local, cityHash64(device_id));

-- Device-days whose positions changed after the day ended (microseconds of the store's clock):
-- the position writer (platform insertPositions) marks the days of the late fixes it stores (live
-- traffic, today's fixes, marks nothing: a materialized view writing here with every insert cost
-- the writer a quarter to a half more CPU, bench position-writer), a deletion marks its days. A
-- day's runs whose version is below its newest mark are stale.
CREATE TABLE IF NOT EXISTS {{db}}.{{local track_touched}}{{on_cluster}} (
  device_id UInt64,
  day Date,
  version UInt64
) ENGINE = {{engine ReplacingMergeTree(version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (device_id, day);

{{cluster_only}}
CREATE TABLE IF NOT EXISTS {{db}}.track_touched{{on_cluster}} AS {{db}}.track_touched_local
ENGINE = Distributed({{cluster}}, {{db}}, track_touched_local, cityHash64(device_id));

-- The days stored before this migration (a late fix stored meanwhile by a writer of the new
-- version is marked, so its day is stale until computed again). The same computation as ops-api's
-- clickhouse/report-track-runs.ts trackRunsSql, with version 0.
{{each_partition positions into track_runs}}
INSERT INTO {{db}}.track_runs (device_id, day, version, latitude, longitude, speed, ignition, motion, times, kinds)
SELECT device_id, day, 0, r.1, r.2, r.3, r.4, r.5, r.6, r.7
FROM (
SELECT device_id, day, arraySort(x -> x.6[1], groupArray((la, lo, v, i, m, ts, ks))) AS r
FROM (
  SELECT device_id, day, run, any(la) AS la, any(lo) AS lo, any(v) AS v, any(i) AS i, any(m) AS m,
         arraySort(groupArray((t, k))) AS tk, tk.1 AS ts, tk.2 AS ks
  FROM (
    SELECT device_id, day, t, k, la, lo, v, i, m,
           sum(changed) OVER (PARTITION BY device_id, day ORDER BY t, k ROWS UNBOUNDED PRECEDING) AS run
    FROM (
      SELECT device_id, day, t, k, la, lo, v, i, m,
             row_number() OVER w = 1 OR (la, lo, v, i, m) != lagInFrame((la, lo, v, i, m)) OVER w AS changed
      FROM (
        SELECT device_id, toDate(fix_time) AS day, toUInt32(toUnixTimestamp(fix_time)) AS t,
               toUInt8(bitTest(id, 20) + throwIf(id != ((toUInt64(intDiv(toUnixTimestamp64Milli(fix_time), 1000) - 946684800) * 2 + bitTest(id, 20)) * 1048576 + device_id)
                 OR toUnixTimestamp64Milli(fix_time) % 1000 != 0, 'a stored position whose id is not its device, whole-second fix time and kind')) AS k,
               argMin((latitude, longitude, speed, toInt8(ifNull(toInt8(ignition), -1)),
                       toInt8(ifNull(toInt8(if(position(attributes, '"motion"') > 0, JSONExtract(attributes, 'motion', 'Nullable(Bool)'), NULL)), -1))),
                      server_time) AS values,
               values.1 AS la, values.2 AS lo, values.3 AS v, values.4 AS i, values.5 AS m
        FROM {{db}}.positions WHERE _partition_id = {partition:String}
        GROUP BY device_id, fix_time, id
      )
      WINDOW w AS (PARTITION BY device_id, day ORDER BY t, k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
    )
  )
  GROUP BY device_id, day, run
)
GROUP BY device_id, day
);
