-- The placement directory (docs/scaling.md, "Spaces across clusters"): which cluster each
-- space lives on when zaxy serve runs with ZAXY_CLUSTERS. It lives on the home cluster (the one
-- ZAXY_DATABASE_URL names); the table exists on every cluster and stays empty on the others.
-- A space is placed on its first authorized request by the placement rule (rendezvous hashing
-- over the clusters' weights) unless an operator pinned it first; a move names its target in
-- moving_to until the directory flips to it, and the cluster it left in moved_from until
-- zaxy space move --finish drops the copy there.
CREATE TABLE space_placements (
  space_id   text PRIMARY KEY
             CONSTRAINT space_placements_space_id_format CHECK (space_id ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  cluster    text NOT NULL CONSTRAINT space_placements_cluster_format CHECK (cluster ~ '^[a-z][a-z0-9_-]{0,31}$'),
  pinned     boolean NOT NULL DEFAULT false,
  moving_to  text CONSTRAINT space_placements_moving_to_format CHECK (moving_to ~ '^[a-z][a-z0-9_-]{0,31}$'),
  moved_from text CONSTRAINT space_placements_moved_from_format CHECK (moved_from ~ '^[a-z][a-z0-9_-]{0,31}$'),
  placed_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  moved_at   timestamptz,
  CONSTRAINT space_placements_move_elsewhere CHECK (moving_to <> cluster AND moved_from <> cluster)
);

COMMENT ON TABLE space_placements IS 'Placement directory: the cluster each space lives on (ZAXY_CLUSTERS), a move in progress and the copy a move left behind.';

REVOKE ALL ON space_placements FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT ON space_placements TO zaxy_app;
  END IF;
END $$;
