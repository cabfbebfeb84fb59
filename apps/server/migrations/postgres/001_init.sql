-- Accounts, sign-in nonces, sessions and payments. Addresses are stored checksummed (EIP-55); wei values as
-- numeric(78,0), wide enough for any uint256.
CREATE TABLE accounts (
  address      text PRIMARY KEY,
  first_seen   timestamptz NOT NULL DEFAULT now(),
  last_sign_in timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE nonces (
  nonce      text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX nonces_expires_at ON nonces (expires_at);

CREATE TABLE sessions (
  -- SHA-256 of the cookie's token: a leaked table cannot be replayed as cookies.
  token_hash text PRIMARY KEY,
  address    text NOT NULL REFERENCES accounts (address) ON DELETE CASCADE,
  chain_id   integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_address ON sessions (address);

CREATE TABLE payments (
  tx_hash       text PRIMARY KEY,
  chain_id      integer NOT NULL,
  from_address  text NOT NULL REFERENCES accounts (address) ON DELETE CASCADE,
  to_address    text NOT NULL,
  value_wei     numeric(78, 0) NOT NULL,
  status        text NOT NULL CHECK (status IN ('pending', 'included', 'confirmed', 'failed')),
  block_number  bigint,
  confirmations integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  confirmed_at  timestamptz
);
CREATE INDEX payments_from ON payments (from_address, created_at DESC);
CREATE INDEX payments_open ON payments (status) WHERE status IN ('pending', 'included');
