-- SQLite's copy of postgres/002_payments_from_chain.sql (issue 12): new states, the block's hash, finality, an epoch,
-- reorgs, the clock of "dropped" and row claims. SQLite cannot change a CHECK constraint in place, so the table is
-- rebuilt with the new one and its rows copied over (nothing references payments).
CREATE TABLE payments_v2 (
  tx_hash       text PRIMARY KEY,
  chain_id      integer NOT NULL,
  from_address  text NOT NULL REFERENCES accounts (address) ON DELETE CASCADE,
  to_address    text NOT NULL,
  value_wei     text NOT NULL CHECK (length(value_wei) <= 78 AND value_wei GLOB '[0-9]*' AND value_wei NOT GLOB '*[^0-9]*'),
  status        text NOT NULL CHECK (status IN ('pending', 'included', 'confirmed', 'failed', 'reorged', 'dropped')),
  block_number  bigint,
  confirmations integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at    timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  confirmed_at  timestamptz,
  block_hash    text,
  -- Final: deep enough that the follower stops re-checking it.
  final         boolean NOT NULL DEFAULT false,
  -- Bumped on every reorg: an update read in an older epoch can never overwrite a newer one.
  epoch         integer NOT NULL DEFAULT 0,
  reorgs        integer NOT NULL DEFAULT 0,
  -- Since when the payment waits for a block (recorded, or reorganised away): the clock of "dropped".
  pending_since timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  claim_token   text,
  claimed_until timestamptz
);
INSERT INTO payments_v2 (tx_hash, chain_id, from_address, to_address, value_wei, status, block_number, confirmations,
  created_at, updated_at, confirmed_at)
SELECT tx_hash, chain_id, from_address, to_address, value_wei, status, block_number, confirmations, created_at,
  updated_at, confirmed_at FROM payments;
DROP TABLE payments;
ALTER TABLE payments_v2 RENAME TO payments;
CREATE INDEX payments_from ON payments (from_address, created_at DESC);
CREATE INDEX payments_open ON payments (chain_id, updated_at) WHERE NOT final AND status <> 'dropped';
CREATE INDEX payments_pending ON payments (from_address) WHERE status IN ('pending', 'reorged');
