-- SQLite's copy of postgres/001_init.sql: the same tables, columns, keys and indexes. Declared types name what the
-- column holds, and the server reads them back as PostgreSQL's driver does: timestamptz (text, ISO 8601 UTC with
-- milliseconds, as Date.toISOString() writes it) → Date, boolean (0/1) → true/false, bigint → string. Wei values are
-- text: SQLite's numbers stop at 64 bits.
CREATE TABLE accounts (
  address      text PRIMARY KEY,
  first_seen   timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_sign_in timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE nonces (
  nonce      text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX nonces_expires_at ON nonces (expires_at);

CREATE TABLE sessions (
  -- SHA-256 of the cookie's token: a leaked table cannot be replayed as cookies.
  token_hash text PRIMARY KEY,
  address    text NOT NULL REFERENCES accounts (address) ON DELETE CASCADE,
  chain_id   integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_address ON sessions (address);

CREATE TABLE payments (
  tx_hash       text PRIMARY KEY,
  chain_id      integer NOT NULL,
  from_address  text NOT NULL REFERENCES accounts (address) ON DELETE CASCADE,
  to_address    text NOT NULL,
  value_wei     text NOT NULL CHECK (length(value_wei) <= 78 AND value_wei GLOB '[0-9]*' AND value_wei NOT GLOB '*[^0-9]*'),
  status        text NOT NULL CHECK (status IN ('pending', 'included', 'confirmed', 'failed')),
  block_number  bigint,
  confirmations integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at    timestamptz NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  confirmed_at  timestamptz
);
CREATE INDEX payments_from ON payments (from_address, created_at DESC);
CREATE INDEX payments_open ON payments (status) WHERE status IN ('pending', 'included');
