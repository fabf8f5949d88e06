-- position ids became numbers (contracts position-id.ts): '<deviceId>-<fix ms>' becomes ((fix s since 2000) * 2) * 2^20 + deviceId
ALTER TABLE "geofence"."geofence_events" ALTER COLUMN "position_id" SET DATA TYPE bigint USING (CASE WHEN "position_id" ~ '^[0-9]{1,7}-[0-9]{12,13}$' AND split_part("position_id", '-', 1)::bigint BETWEEN 1 AND 1048575
    THEN (split_part("position_id", '-', 2)::bigint / 1000 - 946684800) * 2 * 1048576 + split_part("position_id", '-', 1)::bigint END);
