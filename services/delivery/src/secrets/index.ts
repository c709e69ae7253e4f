export { SecretCipher, SecretsKeyError, keyId } from './secret-cipher';
export { secretCipherFromSettings, generatedKeyFileName } from './secrets-key';
export { sealSigningSecrets, openSigningSecrets, needSealing } from './sealed-signing-secrets';
export { sealTransport, openTransport } from './sealed-smtp-password';
