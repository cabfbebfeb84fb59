// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A smart account for the dev chain with one owner key: a signature is the account's (EIP-1271) when the owner
/// signed the hash itself, as `personal_sign` of a message signs that message's EIP-191 hash.
contract PairlinkAccount {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// EIP-1271: 0x1626ba7e when `signature` (65 bytes, r ‖ s ‖ v) is the owner's over `hash`, else 0xffffffff.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    receive() external payable {}
}

/// Deploys accounts at addresses known before they exist (CREATE2): the factory an EIP-6492 signature names, so that
/// an account not deployed yet can sign in.
contract PairlinkAccountFactory {
    /// Deploys the account of `owner` and `salt` (or answers it when deployed already).
    function deploy(address owner, bytes32 salt) external returns (address account) {
        account = addressOf(owner, salt);
        if (account.code.length == 0) new PairlinkAccount{salt: salt}(owner);
    }

    /// Where the account of `owner` and `salt` is, or will be once deployed.
    function addressOf(address owner, bytes32 salt) public view returns (address) {
        bytes32 code = keccak256(abi.encodePacked(type(PairlinkAccount).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, code)))));
    }
}
