-- Payments become facts read from the chain (issue 12): new states, the block's hash to notice reorgs, finality,
-- an epoch that only a reorg (or a fresh claim by the sender) advances, and row claims so that only one follower at
-- a time works on a payment.
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('pending', 'included', 'confirmed', 'failed', 'reorged', 'dropped'));
ALTER TABLE payments ADD COLUMN block_hash text;
-- Final: deep enough that the follower stops re-checking it.
ALTER TABLE payments ADD COLUMN final boolean NOT NULL DEFAULT false;
-- Bumped on every reorg: an update read in an older epoch can never overwrite a newer one.
ALTER TABLE payments ADD COLUMN epoch integer NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN reorgs integer NOT NULL DEFAULT 0;
-- Since when the payment waits for a block (recorded, or reorganised away): the clock of "dropped".
ALTER TABLE payments ADD COLUMN pending_since timestamptz NOT NULL DEFAULT now();
ALTER TABLE payments ADD COLUMN claim_token text;
ALTER TABLE payments ADD COLUMN claimed_until timestamptz;
DROP INDEX payments_open;
CREATE INDEX payments_open ON payments (chain_id, updated_at) WHERE NOT final AND status <> 'dropped';
CREATE INDEX payments_pending ON payments (from_address) WHERE status IN ('pending', 'reorged');
