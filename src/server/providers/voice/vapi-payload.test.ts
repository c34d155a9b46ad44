/**
 * Every value of Vapi's `endedReason` (the server SDK's CallEndedReason, VapiAI/server-sdk-typescript
 * src/api/types/CallEndedReason.ts at 7ec0a68, 571 values, the same list as
 * ServerMessageEndOfCallReportEndedReason) and of its CallStatus, each read deliberately.
 * The SDK's list is written out here; the expectations are stated beside it, independently of the
 * adapter's table: the reasons below that are not listed as connected, transferred or never
 * connected are all errors, and read as failed with the reason as the error.
 */
import { describe, expect, it } from 'vitest';
import vapiFixture from './fixtures/vapi-end-of-call-report.json';
import { callOfReport, messageSpan, parseVapiCall, readVapiStoredPayload, vapiEndedBy } from './vapi-payload';
import { parseVapiWebhook } from './vapi-webhook';

const VAPI_ENDED_REASONS = [
  'call-start-error-neither-assistant-nor-server-set',
  'assistant-request-failed',
  'assistant-request-returned-error',
  'assistant-request-returned-unspeakable-error',
  'assistant-request-returned-invalid-assistant',
  'assistant-request-returned-no-assistant',
  'assistant-request-returned-forwarding-phone-number',
  'scheduled-call-deleted',
  'call.start.error-vapifault-get-org',
  'call.start.error-vapifault-get-subscription',
  'call.start.error-get-assistant',
  'call.start.error-get-phone-number',
  'call.start.error-get-customer',
  'call.start.error-get-resources-validation',
  'call.start.error-vapi-number-international',
  'call.start.error-vapi-number-outbound-daily-limit',
  'call.start.error-get-transport',
  'call.start.error-subscription-wallet-does-not-exist',
  'call.start.error-fraud-check-failed',
  'call.start.error-subscription-frozen',
  'call.start.error-subscription-insufficient-credits',
  'call.start.error-subscription-upgrade-failed',
  'call.start.error-subscription-concurrency-limit-reached',
  'call.start.error-enterprise-feature-not-available-recording-consent',
  'assistant-not-valid',
  'call.start.error-vapifault-database-error',
  'assistant-not-found',
  'pipeline-error-openai-voice-failed',
  'pipeline-error-cartesia-voice-failed',
  'pipeline-error-deepgram-voice-failed',
  'pipeline-error-eleven-labs-voice-failed',
  'pipeline-error-playht-voice-failed',
  'pipeline-error-lmnt-voice-failed',
  'pipeline-error-azure-voice-failed',
  'pipeline-error-rime-ai-voice-failed',
  'pipeline-error-smallest-ai-voice-failed',
  'pipeline-error-vapi-voice-failed',
  'pipeline-error-neuphonic-voice-failed',
  'pipeline-error-hume-voice-failed',
  'pipeline-error-sesame-voice-failed',
  'pipeline-error-inworld-voice-failed',
  'pipeline-error-minimax-voice-failed',
  'pipeline-error-wellsaid-voice-failed',
  'pipeline-error-tavus-video-failed',
  'call.in-progress.error-vapifault-openai-voice-failed',
  'call.in-progress.error-vapifault-cartesia-voice-failed',
  'call.in-progress.error-vapifault-deepgram-voice-failed',
  'call.in-progress.error-vapifault-eleven-labs-voice-failed',
  'call.in-progress.error-vapifault-playht-voice-failed',
  'call.in-progress.error-vapifault-lmnt-voice-failed',
  'call.in-progress.error-vapifault-azure-voice-failed',
  'call.in-progress.error-vapifault-rime-ai-voice-failed',
  'call.in-progress.error-vapifault-smallest-ai-voice-failed',
  'call.in-progress.error-vapifault-vapi-voice-failed',
  'call.in-progress.error-vapifault-neuphonic-voice-failed',
  'call.in-progress.error-vapifault-hume-voice-failed',
  'call.in-progress.error-vapifault-sesame-voice-failed',
  'call.in-progress.error-vapifault-inworld-voice-failed',
  'call.in-progress.error-vapifault-minimax-voice-failed',
  'call.in-progress.error-vapifault-wellsaid-voice-failed',
  'call.in-progress.error-vapifault-tavus-video-failed',
  'pipeline-error-vapi-llm-failed',
  'pipeline-error-vapi-400-bad-request-validation-failed',
  'pipeline-error-vapi-401-unauthorized',
  'pipeline-error-vapi-403-model-access-denied',
  'pipeline-error-vapi-429-exceeded-quota',
  'pipeline-error-vapi-500-server-error',
  'pipeline-error-vapi-503-server-overloaded-error',
  'call.in-progress.error-providerfault-vapi-llm-failed',
  'call.in-progress.error-vapifault-vapi-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-vapi-401-unauthorized',
  'call.in-progress.error-vapifault-vapi-403-model-access-denied',
  'call.in-progress.error-vapifault-vapi-429-exceeded-quota',
  'call.in-progress.error-providerfault-vapi-500-server-error',
  'call.in-progress.error-providerfault-vapi-503-server-overloaded-error',
  'pipeline-error-deepgram-transcriber-failed',
  'pipeline-error-deepgram-transcriber-api-key-missing',
  'call.in-progress.error-vapifault-deepgram-transcriber-failed',
  'pipeline-error-gladia-transcriber-failed',
  'call.in-progress.error-vapifault-gladia-transcriber-failed',
  'pipeline-error-speechmatics-transcriber-failed',
  'call.in-progress.error-vapifault-speechmatics-transcriber-failed',
  'pipeline-error-assembly-ai-transcriber-failed',
  'pipeline-error-assembly-ai-returning-400-insufficent-funds',
  'pipeline-error-assembly-ai-returning-400-paid-only-feature',
  'pipeline-error-assembly-ai-returning-401-invalid-credentials',
  'pipeline-error-assembly-ai-returning-500-invalid-schema',
  'pipeline-error-assembly-ai-returning-500-word-boost-parsing-failed',
  'call.in-progress.error-vapifault-assembly-ai-transcriber-failed',
  'call.in-progress.error-vapifault-assembly-ai-returning-400-insufficent-funds',
  'call.in-progress.error-vapifault-assembly-ai-returning-400-paid-only-feature',
  'call.in-progress.error-vapifault-assembly-ai-returning-401-invalid-credentials',
  'call.in-progress.error-vapifault-assembly-ai-returning-500-invalid-schema',
  'call.in-progress.error-vapifault-assembly-ai-returning-500-word-boost-parsing-failed',
  'pipeline-error-talkscriber-transcriber-failed',
  'call.in-progress.error-vapifault-talkscriber-transcriber-failed',
  'pipeline-error-azure-speech-transcriber-failed',
  'call.in-progress.error-vapifault-azure-speech-transcriber-failed',
  'pipeline-error-eleven-labs-transcriber-failed',
  'call.in-progress.error-vapifault-eleven-labs-transcriber-failed',
  'pipeline-error-google-transcriber-failed',
  'call.in-progress.error-vapifault-google-transcriber-failed',
  'pipeline-error-openai-transcriber-failed',
  'call.in-progress.error-vapifault-openai-transcriber-failed',
  'pipeline-error-soniox-transcriber-auth-failed',
  'pipeline-error-soniox-transcriber-rate-limited',
  'pipeline-error-soniox-transcriber-invalid-config',
  'pipeline-error-soniox-transcriber-server-error',
  'pipeline-error-soniox-transcriber-failed',
  'call.in-progress.error-vapifault-soniox-transcriber-auth-failed',
  'call.in-progress.error-vapifault-soniox-transcriber-rate-limited',
  'call.in-progress.error-vapifault-soniox-transcriber-invalid-config',
  'call.in-progress.error-vapifault-soniox-transcriber-server-error',
  'call.in-progress.error-vapifault-soniox-transcriber-failed',
  'call.in-progress.error-pipeline-no-available-llm-model',
  'worker-shutdown',
  'vonage-disconnected',
  'vonage-failed-to-connect-call',
  'vonage-completed',
  'phone-call-provider-bypass-enabled-but-no-call-received',
  'call.in-progress.error-providerfault-transport-never-connected',
  'call.in-progress.error-vapifault-worker-not-available',
  'call.in-progress.error-vapifault-transport-never-connected',
  'call.in-progress.error-vapifault-transport-connected-but-call-not-active',
  'call.in-progress.error-vapifault-call-started-but-connection-to-transport-missing',
  'call.in-progress.error-vapifault-worker-died',
  'call.in-progress.twilio-completed-call',
  'call.in-progress.sip-completed-call',
  'call.in-progress.error-sip-inbound-call-failed-to-connect',
  'call.in-progress.error-providerfault-outbound-sip-503-service-unavailable',
  'call.in-progress.error-sip-outbound-call-failed-to-connect',
  'call.ringing.error-sip-inbound-call-failed-to-connect',
  'call.in-progress.error-providerfault-openai-llm-failed',
  'call.in-progress.error-providerfault-azure-openai-llm-failed',
  'call.in-progress.error-providerfault-groq-llm-failed',
  'call.in-progress.error-providerfault-google-llm-failed',
  'call.in-progress.error-providerfault-xai-llm-failed',
  'call.in-progress.error-providerfault-mistral-llm-failed',
  'call.in-progress.error-providerfault-minimax-llm-failed',
  'call.in-progress.error-providerfault-inflection-ai-llm-failed',
  'call.in-progress.error-providerfault-cerebras-llm-failed',
  'call.in-progress.error-providerfault-deep-seek-llm-failed',
  'call.in-progress.error-providerfault-baseten-llm-failed',
  'call.in-progress.error-vapifault-chat-pipeline-failed-to-start',
  'pipeline-error-openai-400-bad-request-validation-failed',
  'pipeline-error-openai-401-unauthorized',
  'pipeline-error-openai-401-incorrect-api-key',
  'pipeline-error-openai-401-account-not-in-organization',
  'pipeline-error-openai-403-model-access-denied',
  'pipeline-error-openai-429-exceeded-quota',
  'pipeline-error-openai-429-rate-limit-reached',
  'pipeline-error-openai-500-server-error',
  'pipeline-error-openai-503-server-overloaded-error',
  'pipeline-error-openai-llm-failed',
  'call.in-progress.error-vapifault-openai-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-openai-401-unauthorized',
  'call.in-progress.error-vapifault-openai-401-incorrect-api-key',
  'call.in-progress.error-vapifault-openai-401-account-not-in-organization',
  'call.in-progress.error-vapifault-openai-403-model-access-denied',
  'call.in-progress.error-vapifault-openai-429-exceeded-quota',
  'call.in-progress.error-vapifault-openai-429-rate-limit-reached',
  'call.in-progress.error-providerfault-openai-500-server-error',
  'call.in-progress.error-providerfault-openai-503-server-overloaded-error',
  'pipeline-error-azure-openai-400-bad-request-validation-failed',
  'pipeline-error-azure-openai-401-unauthorized',
  'pipeline-error-azure-openai-403-model-access-denied',
  'pipeline-error-azure-openai-429-exceeded-quota',
  'pipeline-error-azure-openai-500-server-error',
  'pipeline-error-azure-openai-503-server-overloaded-error',
  'pipeline-error-azure-openai-llm-failed',
  'call.in-progress.error-vapifault-azure-openai-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-azure-openai-401-unauthorized',
  'call.in-progress.error-vapifault-azure-openai-403-model-access-denied',
  'call.in-progress.error-vapifault-azure-openai-429-exceeded-quota',
  'call.in-progress.error-providerfault-azure-openai-500-server-error',
  'call.in-progress.error-providerfault-azure-openai-503-server-overloaded-error',
  'pipeline-error-google-400-bad-request-validation-failed',
  'pipeline-error-google-401-unauthorized',
  'pipeline-error-google-403-model-access-denied',
  'pipeline-error-google-429-exceeded-quota',
  'pipeline-error-google-500-server-error',
  'pipeline-error-google-503-server-overloaded-error',
  'pipeline-error-google-llm-failed',
  'call.in-progress.error-vapifault-google-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-google-401-unauthorized',
  'call.in-progress.error-vapifault-google-403-model-access-denied',
  'call.in-progress.error-vapifault-google-429-exceeded-quota',
  'call.in-progress.error-providerfault-google-500-server-error',
  'call.in-progress.error-providerfault-google-503-server-overloaded-error',
  'pipeline-error-xai-400-bad-request-validation-failed',
  'pipeline-error-xai-401-unauthorized',
  'pipeline-error-xai-403-model-access-denied',
  'pipeline-error-xai-429-exceeded-quota',
  'pipeline-error-xai-500-server-error',
  'pipeline-error-xai-503-server-overloaded-error',
  'pipeline-error-xai-llm-failed',
  'call.in-progress.error-vapifault-xai-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-xai-401-unauthorized',
  'call.in-progress.error-vapifault-xai-403-model-access-denied',
  'call.in-progress.error-vapifault-xai-429-exceeded-quota',
  'call.in-progress.error-providerfault-xai-500-server-error',
  'call.in-progress.error-providerfault-xai-503-server-overloaded-error',
  'pipeline-error-baseten-400-bad-request-validation-failed',
  'pipeline-error-baseten-401-unauthorized',
  'pipeline-error-baseten-403-model-access-denied',
  'pipeline-error-baseten-429-exceeded-quota',
  'pipeline-error-baseten-500-server-error',
  'pipeline-error-baseten-503-server-overloaded-error',
  'pipeline-error-baseten-llm-failed',
  'call.in-progress.error-vapifault-baseten-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-baseten-401-unauthorized',
  'call.in-progress.error-vapifault-baseten-403-model-access-denied',
  'call.in-progress.error-vapifault-baseten-429-exceeded-quota',
  'call.in-progress.error-providerfault-baseten-500-server-error',
  'call.in-progress.error-providerfault-baseten-503-server-overloaded-error',
  'pipeline-error-mistral-400-bad-request-validation-failed',
  'pipeline-error-mistral-401-unauthorized',
  'pipeline-error-mistral-403-model-access-denied',
  'pipeline-error-mistral-429-exceeded-quota',
  'pipeline-error-mistral-500-server-error',
  'pipeline-error-mistral-503-server-overloaded-error',
  'pipeline-error-mistral-llm-failed',
  'call.in-progress.error-vapifault-mistral-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-mistral-401-unauthorized',
  'call.in-progress.error-vapifault-mistral-403-model-access-denied',
  'call.in-progress.error-vapifault-mistral-429-exceeded-quota',
  'call.in-progress.error-providerfault-mistral-500-server-error',
  'call.in-progress.error-providerfault-mistral-503-server-overloaded-error',
  'pipeline-error-minimax-400-bad-request-validation-failed',
  'pipeline-error-minimax-401-unauthorized',
  'pipeline-error-minimax-403-model-access-denied',
  'pipeline-error-minimax-429-exceeded-quota',
  'pipeline-error-minimax-500-server-error',
  'pipeline-error-minimax-503-server-overloaded-error',
  'pipeline-error-minimax-llm-failed',
  'call.in-progress.error-vapifault-minimax-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-minimax-401-unauthorized',
  'call.in-progress.error-vapifault-minimax-403-model-access-denied',
  'call.in-progress.error-vapifault-minimax-429-exceeded-quota',
  'call.in-progress.error-providerfault-minimax-500-server-error',
  'call.in-progress.error-providerfault-minimax-503-server-overloaded-error',
  'pipeline-error-inflection-ai-400-bad-request-validation-failed',
  'pipeline-error-inflection-ai-401-unauthorized',
  'pipeline-error-inflection-ai-403-model-access-denied',
  'pipeline-error-inflection-ai-429-exceeded-quota',
  'pipeline-error-inflection-ai-500-server-error',
  'pipeline-error-inflection-ai-503-server-overloaded-error',
  'pipeline-error-inflection-ai-llm-failed',
  'call.in-progress.error-vapifault-inflection-ai-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-inflection-ai-401-unauthorized',
  'call.in-progress.error-vapifault-inflection-ai-403-model-access-denied',
  'call.in-progress.error-vapifault-inflection-ai-429-exceeded-quota',
  'call.in-progress.error-providerfault-inflection-ai-500-server-error',
  'call.in-progress.error-providerfault-inflection-ai-503-server-overloaded-error',
  'pipeline-error-deep-seek-400-bad-request-validation-failed',
  'pipeline-error-deep-seek-401-unauthorized',
  'pipeline-error-deep-seek-403-model-access-denied',
  'pipeline-error-deep-seek-429-exceeded-quota',
  'pipeline-error-deep-seek-500-server-error',
  'pipeline-error-deep-seek-503-server-overloaded-error',
  'pipeline-error-deep-seek-llm-failed',
  'call.in-progress.error-vapifault-deep-seek-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-deep-seek-401-unauthorized',
  'call.in-progress.error-vapifault-deep-seek-403-model-access-denied',
  'call.in-progress.error-vapifault-deep-seek-429-exceeded-quota',
  'call.in-progress.error-providerfault-deep-seek-500-server-error',
  'call.in-progress.error-providerfault-deep-seek-503-server-overloaded-error',
  'pipeline-error-groq-400-bad-request-validation-failed',
  'pipeline-error-groq-401-unauthorized',
  'pipeline-error-groq-403-model-access-denied',
  'pipeline-error-groq-429-exceeded-quota',
  'pipeline-error-groq-500-server-error',
  'pipeline-error-groq-503-server-overloaded-error',
  'pipeline-error-groq-llm-failed',
  'call.in-progress.error-vapifault-groq-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-groq-401-unauthorized',
  'call.in-progress.error-vapifault-groq-403-model-access-denied',
  'call.in-progress.error-vapifault-groq-429-exceeded-quota',
  'call.in-progress.error-providerfault-groq-500-server-error',
  'call.in-progress.error-providerfault-groq-503-server-overloaded-error',
  'pipeline-error-cerebras-400-bad-request-validation-failed',
  'pipeline-error-cerebras-401-unauthorized',
  'pipeline-error-cerebras-403-model-access-denied',
  'pipeline-error-cerebras-429-exceeded-quota',
  'pipeline-error-cerebras-500-server-error',
  'pipeline-error-cerebras-503-server-overloaded-error',
  'pipeline-error-cerebras-llm-failed',
  'call.in-progress.error-vapifault-cerebras-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-cerebras-401-unauthorized',
  'call.in-progress.error-vapifault-cerebras-403-model-access-denied',
  'call.in-progress.error-vapifault-cerebras-429-exceeded-quota',
  'call.in-progress.error-providerfault-cerebras-500-server-error',
  'call.in-progress.error-providerfault-cerebras-503-server-overloaded-error',
  'pipeline-error-anthropic-400-bad-request-validation-failed',
  'pipeline-error-anthropic-401-unauthorized',
  'pipeline-error-anthropic-403-model-access-denied',
  'pipeline-error-anthropic-429-exceeded-quota',
  'pipeline-error-anthropic-500-server-error',
  'pipeline-error-anthropic-503-server-overloaded-error',
  'pipeline-error-anthropic-llm-failed',
  'call.in-progress.error-providerfault-anthropic-llm-failed',
  'call.in-progress.error-vapifault-anthropic-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-anthropic-401-unauthorized',
  'call.in-progress.error-vapifault-anthropic-403-model-access-denied',
  'call.in-progress.error-vapifault-anthropic-429-exceeded-quota',
  'call.in-progress.error-providerfault-anthropic-500-server-error',
  'call.in-progress.error-providerfault-anthropic-503-server-overloaded-error',
  'pipeline-error-anthropic-bedrock-400-bad-request-validation-failed',
  'pipeline-error-anthropic-bedrock-401-unauthorized',
  'pipeline-error-anthropic-bedrock-403-model-access-denied',
  'pipeline-error-anthropic-bedrock-429-exceeded-quota',
  'pipeline-error-anthropic-bedrock-500-server-error',
  'pipeline-error-anthropic-bedrock-503-server-overloaded-error',
  'pipeline-error-anthropic-bedrock-llm-failed',
  'call.in-progress.error-providerfault-anthropic-bedrock-llm-failed',
  'call.in-progress.error-vapifault-anthropic-bedrock-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-anthropic-bedrock-401-unauthorized',
  'call.in-progress.error-vapifault-anthropic-bedrock-403-model-access-denied',
  'call.in-progress.error-vapifault-anthropic-bedrock-429-exceeded-quota',
  'call.in-progress.error-providerfault-anthropic-bedrock-500-server-error',
  'call.in-progress.error-providerfault-anthropic-bedrock-503-server-overloaded-error',
  'pipeline-error-anthropic-vertex-400-bad-request-validation-failed',
  'pipeline-error-anthropic-vertex-401-unauthorized',
  'pipeline-error-anthropic-vertex-403-model-access-denied',
  'pipeline-error-anthropic-vertex-429-exceeded-quota',
  'pipeline-error-anthropic-vertex-500-server-error',
  'pipeline-error-anthropic-vertex-503-server-overloaded-error',
  'pipeline-error-anthropic-vertex-llm-failed',
  'call.in-progress.error-providerfault-anthropic-vertex-llm-failed',
  'call.in-progress.error-vapifault-anthropic-vertex-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-anthropic-vertex-401-unauthorized',
  'call.in-progress.error-vapifault-anthropic-vertex-403-model-access-denied',
  'call.in-progress.error-vapifault-anthropic-vertex-429-exceeded-quota',
  'call.in-progress.error-providerfault-anthropic-vertex-500-server-error',
  'call.in-progress.error-providerfault-anthropic-vertex-503-server-overloaded-error',
  'pipeline-error-together-ai-400-bad-request-validation-failed',
  'pipeline-error-together-ai-401-unauthorized',
  'pipeline-error-together-ai-403-model-access-denied',
  'pipeline-error-together-ai-429-exceeded-quota',
  'pipeline-error-together-ai-500-server-error',
  'pipeline-error-together-ai-503-server-overloaded-error',
  'pipeline-error-together-ai-llm-failed',
  'call.in-progress.error-providerfault-together-ai-llm-failed',
  'call.in-progress.error-vapifault-together-ai-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-together-ai-401-unauthorized',
  'call.in-progress.error-vapifault-together-ai-403-model-access-denied',
  'call.in-progress.error-vapifault-together-ai-429-exceeded-quota',
  'call.in-progress.error-providerfault-together-ai-500-server-error',
  'call.in-progress.error-providerfault-together-ai-503-server-overloaded-error',
  'pipeline-error-anyscale-400-bad-request-validation-failed',
  'pipeline-error-anyscale-401-unauthorized',
  'pipeline-error-anyscale-403-model-access-denied',
  'pipeline-error-anyscale-429-exceeded-quota',
  'pipeline-error-anyscale-500-server-error',
  'pipeline-error-anyscale-503-server-overloaded-error',
  'pipeline-error-anyscale-llm-failed',
  'call.in-progress.error-providerfault-anyscale-llm-failed',
  'call.in-progress.error-vapifault-anyscale-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-anyscale-401-unauthorized',
  'call.in-progress.error-vapifault-anyscale-403-model-access-denied',
  'call.in-progress.error-vapifault-anyscale-429-exceeded-quota',
  'call.in-progress.error-providerfault-anyscale-500-server-error',
  'call.in-progress.error-providerfault-anyscale-503-server-overloaded-error',
  'pipeline-error-openrouter-400-bad-request-validation-failed',
  'pipeline-error-openrouter-401-unauthorized',
  'pipeline-error-openrouter-403-model-access-denied',
  'pipeline-error-openrouter-429-exceeded-quota',
  'pipeline-error-openrouter-500-server-error',
  'pipeline-error-openrouter-503-server-overloaded-error',
  'pipeline-error-openrouter-llm-failed',
  'call.in-progress.error-providerfault-openrouter-llm-failed',
  'call.in-progress.error-vapifault-openrouter-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-openrouter-401-unauthorized',
  'call.in-progress.error-vapifault-openrouter-403-model-access-denied',
  'call.in-progress.error-vapifault-openrouter-429-exceeded-quota',
  'call.in-progress.error-providerfault-openrouter-500-server-error',
  'call.in-progress.error-providerfault-openrouter-503-server-overloaded-error',
  'pipeline-error-perplexity-ai-400-bad-request-validation-failed',
  'pipeline-error-perplexity-ai-401-unauthorized',
  'pipeline-error-perplexity-ai-403-model-access-denied',
  'pipeline-error-perplexity-ai-429-exceeded-quota',
  'pipeline-error-perplexity-ai-500-server-error',
  'pipeline-error-perplexity-ai-503-server-overloaded-error',
  'pipeline-error-perplexity-ai-llm-failed',
  'call.in-progress.error-providerfault-perplexity-ai-llm-failed',
  'call.in-progress.error-vapifault-perplexity-ai-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-perplexity-ai-401-unauthorized',
  'call.in-progress.error-vapifault-perplexity-ai-403-model-access-denied',
  'call.in-progress.error-vapifault-perplexity-ai-429-exceeded-quota',
  'call.in-progress.error-providerfault-perplexity-ai-500-server-error',
  'call.in-progress.error-providerfault-perplexity-ai-503-server-overloaded-error',
  'pipeline-error-deepinfra-400-bad-request-validation-failed',
  'pipeline-error-deepinfra-401-unauthorized',
  'pipeline-error-deepinfra-403-model-access-denied',
  'pipeline-error-deepinfra-429-exceeded-quota',
  'pipeline-error-deepinfra-500-server-error',
  'pipeline-error-deepinfra-503-server-overloaded-error',
  'pipeline-error-deepinfra-llm-failed',
  'call.in-progress.error-providerfault-deepinfra-llm-failed',
  'call.in-progress.error-vapifault-deepinfra-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-deepinfra-401-unauthorized',
  'call.in-progress.error-vapifault-deepinfra-403-model-access-denied',
  'call.in-progress.error-vapifault-deepinfra-429-exceeded-quota',
  'call.in-progress.error-providerfault-deepinfra-500-server-error',
  'call.in-progress.error-providerfault-deepinfra-503-server-overloaded-error',
  'pipeline-error-runpod-400-bad-request-validation-failed',
  'pipeline-error-runpod-401-unauthorized',
  'pipeline-error-runpod-403-model-access-denied',
  'pipeline-error-runpod-429-exceeded-quota',
  'pipeline-error-runpod-500-server-error',
  'pipeline-error-runpod-503-server-overloaded-error',
  'pipeline-error-runpod-llm-failed',
  'call.in-progress.error-providerfault-runpod-llm-failed',
  'call.in-progress.error-vapifault-runpod-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-runpod-401-unauthorized',
  'call.in-progress.error-vapifault-runpod-403-model-access-denied',
  'call.in-progress.error-vapifault-runpod-429-exceeded-quota',
  'call.in-progress.error-providerfault-runpod-500-server-error',
  'call.in-progress.error-providerfault-runpod-503-server-overloaded-error',
  'pipeline-error-custom-llm-400-bad-request-validation-failed',
  'pipeline-error-custom-llm-401-unauthorized',
  'pipeline-error-custom-llm-403-model-access-denied',
  'pipeline-error-custom-llm-429-exceeded-quota',
  'pipeline-error-custom-llm-500-server-error',
  'pipeline-error-custom-llm-503-server-overloaded-error',
  'pipeline-error-custom-llm-llm-failed',
  'call.in-progress.error-providerfault-custom-llm-llm-failed',
  'call.in-progress.error-vapifault-custom-llm-400-bad-request-validation-failed',
  'call.in-progress.error-vapifault-custom-llm-401-unauthorized',
  'call.in-progress.error-vapifault-custom-llm-403-model-access-denied',
  'call.in-progress.error-vapifault-custom-llm-429-exceeded-quota',
  'call.in-progress.error-providerfault-custom-llm-500-server-error',
  'call.in-progress.error-providerfault-custom-llm-503-server-overloaded-error',
  'call.in-progress.error-pipeline-ws-model-connection-failed',
  'pipeline-error-custom-voice-failed',
  'pipeline-error-cartesia-socket-hang-up',
  'pipeline-error-cartesia-requested-payment',
  'pipeline-error-cartesia-500-server-error',
  'pipeline-error-cartesia-502-server-error',
  'pipeline-error-cartesia-503-server-error',
  'pipeline-error-cartesia-522-server-error',
  'call.in-progress.error-vapifault-cartesia-socket-hang-up',
  'call.in-progress.error-vapifault-cartesia-requested-payment',
  'call.in-progress.error-providerfault-cartesia-500-server-error',
  'call.in-progress.error-providerfault-cartesia-503-server-error',
  'call.in-progress.error-providerfault-cartesia-522-server-error',
  'pipeline-error-eleven-labs-voice-not-found',
  'pipeline-error-eleven-labs-quota-exceeded',
  'pipeline-error-eleven-labs-unauthorized-access',
  'pipeline-error-eleven-labs-unauthorized-to-access-model',
  'pipeline-error-eleven-labs-professional-voices-only-for-creator-plus',
  'pipeline-error-eleven-labs-blocked-free-plan-and-requested-upgrade',
  'pipeline-error-eleven-labs-blocked-concurrent-requests-and-requested-upgrade',
  'pipeline-error-eleven-labs-blocked-using-instant-voice-clone-and-requested-upgrade',
  'pipeline-error-eleven-labs-system-busy-and-requested-upgrade',
  'pipeline-error-eleven-labs-voice-not-fine-tuned',
  'pipeline-error-eleven-labs-invalid-api-key',
  'pipeline-error-eleven-labs-invalid-voice-samples',
  'pipeline-error-eleven-labs-voice-disabled-by-owner',
  'pipeline-error-eleven-labs-vapi-voice-disabled-by-owner',
  'pipeline-error-eleven-labs-blocked-account-in-probation',
  'pipeline-error-eleven-labs-blocked-content-against-their-policy',
  'pipeline-error-eleven-labs-missing-samples-for-voice-clone',
  'pipeline-error-eleven-labs-voice-not-fine-tuned-and-cannot-be-used',
  'pipeline-error-eleven-labs-voice-not-allowed-for-free-users',
  'pipeline-error-eleven-labs-max-character-limit-exceeded',
  'pipeline-error-eleven-labs-blocked-voice-potentially-against-terms-of-service-and-awaiting-verification',
  'pipeline-error-eleven-labs-500-server-error',
  'pipeline-error-eleven-labs-503-server-error',
  'call.in-progress.error-vapifault-eleven-labs-voice-not-found',
  'call.in-progress.error-vapifault-eleven-labs-quota-exceeded',
  'call.in-progress.error-vapifault-eleven-labs-unauthorized-access',
  'call.in-progress.error-vapifault-eleven-labs-unauthorized-to-access-model',
  'call.in-progress.error-vapifault-eleven-labs-professional-voices-only-for-creator-plus',
  'call.in-progress.error-vapifault-eleven-labs-blocked-free-plan-and-requested-upgrade',
  'call.in-progress.error-vapifault-eleven-labs-blocked-concurrent-requests-and-requested-upgrade',
  'call.in-progress.error-vapifault-eleven-labs-blocked-using-instant-voice-clone-and-requested-upgrade',
  'call.in-progress.error-vapifault-eleven-labs-system-busy-and-requested-upgrade',
  'call.in-progress.error-vapifault-eleven-labs-voice-not-fine-tuned',
  'call.in-progress.error-vapifault-eleven-labs-invalid-api-key',
  'call.in-progress.error-vapifault-eleven-labs-invalid-voice-samples',
  'call.in-progress.error-vapifault-eleven-labs-voice-disabled-by-owner',
  'call.in-progress.error-vapifault-eleven-labs-blocked-account-in-probation',
  'call.in-progress.error-vapifault-eleven-labs-blocked-content-against-their-policy',
  'call.in-progress.error-vapifault-eleven-labs-missing-samples-for-voice-clone',
  'call.in-progress.error-vapifault-eleven-labs-voice-not-fine-tuned-and-cannot-be-used',
  'call.in-progress.error-vapifault-eleven-labs-voice-not-allowed-for-free-users',
  'call.in-progress.error-vapifault-eleven-labs-max-character-limit-exceeded',
  'call.in-progress.error-vapifault-eleven-labs-blocked-voice-potentially-against-terms-of-service-and-awaiting-verification',
  'call.in-progress.error-providerfault-eleven-labs-system-busy-and-requested-upgrade',
  'call.in-progress.error-providerfault-eleven-labs-500-server-error',
  'call.in-progress.error-providerfault-eleven-labs-503-server-error',
  'pipeline-error-playht-request-timed-out',
  'pipeline-error-playht-invalid-voice',
  'pipeline-error-playht-unexpected-error',
  'pipeline-error-playht-out-of-credits',
  'pipeline-error-playht-invalid-emotion',
  'pipeline-error-playht-voice-must-be-a-valid-voice-manifest-uri',
  'pipeline-error-playht-401-unauthorized',
  'pipeline-error-playht-403-forbidden-out-of-characters',
  'pipeline-error-playht-403-forbidden-api-access-not-available',
  'pipeline-error-playht-429-exceeded-quota',
  'pipeline-error-playht-502-gateway-error',
  'pipeline-error-playht-504-gateway-error',
  'call.in-progress.error-vapifault-playht-request-timed-out',
  'call.in-progress.error-vapifault-playht-invalid-voice',
  'call.in-progress.error-vapifault-playht-unexpected-error',
  'call.in-progress.error-vapifault-playht-out-of-credits',
  'call.in-progress.error-vapifault-playht-invalid-emotion',
  'call.in-progress.error-vapifault-playht-voice-must-be-a-valid-voice-manifest-uri',
  'call.in-progress.error-vapifault-playht-401-unauthorized',
  'call.in-progress.error-vapifault-playht-403-forbidden-out-of-characters',
  'call.in-progress.error-vapifault-playht-403-forbidden-api-access-not-available',
  'call.in-progress.error-vapifault-playht-429-exceeded-quota',
  'call.in-progress.error-providerfault-playht-502-gateway-error',
  'call.in-progress.error-providerfault-playht-504-gateway-error',
  'pipeline-error-custom-transcriber-failed',
  'call.in-progress.error-vapifault-custom-transcriber-failed',
  'pipeline-error-deepgram-returning-400-no-such-model-language-tier-combination',
  'pipeline-error-deepgram-returning-401-invalid-credentials',
  'pipeline-error-deepgram-returning-403-model-access-denied',
  'pipeline-error-deepgram-returning-404-not-found',
  'pipeline-error-deepgram-returning-500-invalid-json',
  'pipeline-error-deepgram-returning-502-network-error',
  'pipeline-error-deepgram-returning-502-bad-gateway-ehostunreach',
  'pipeline-error-deepgram-returning-econnreset',
  'call.in-progress.error-vapifault-deepgram-returning-400-no-such-model-language-tier-combination',
  'call.in-progress.error-vapifault-deepgram-returning-401-invalid-credentials',
  'call.in-progress.error-vapifault-deepgram-returning-404-not-found',
  'call.in-progress.error-vapifault-deepgram-returning-403-model-access-denied',
  'call.in-progress.error-providerfault-deepgram-returning-500-invalid-json',
  'call.in-progress.error-providerfault-deepgram-returning-502-network-error',
  'call.in-progress.error-providerfault-deepgram-returning-502-bad-gateway-ehostunreach',
  'call.in-progress.error-warm-transfer-max-duration',
  'call.in-progress.error-warm-transfer-assistant-cancelled',
  'call.in-progress.error-warm-transfer-silence-timeout',
  'call.in-progress.error-warm-transfer-microphone-timeout',
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'assistant-ended-call-with-hangup-task',
  'assistant-ended-call-after-message-spoken',
  'assistant-forwarded-call',
  'assistant-join-timed-out',
  'call.in-progress.error-assistant-did-not-receive-customer-audio',
  'call.in-progress.error-transfer-failed',
  'customer-busy',
  'customer-ended-call',
  'customer-ended-call-before-warm-transfer',
  'customer-ended-call-after-warm-transfer-attempt',
  'customer-ended-call-during-transfer',
  'customer-did-not-answer',
  'customer-did-not-give-microphone-permission',
  'exceeded-max-duration',
  'manually-canceled',
  'phone-call-provider-closed-websocket',
  'call.forwarding.operator-busy',
  'silence-timed-out',
  'call.in-progress.error-providerfault-outbound-sip-403-forbidden',
  'call.in-progress.error-providerfault-outbound-sip-407-proxy-authentication-required',
  'call.in-progress.error-providerfault-outbound-sip-408-request-timeout',
  'call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable',
  'call.ringing.hook-executed-say',
  'call.ringing.hook-executed-transfer',
  'call.ending.hook-executed-say',
  'call.ending.hook-executed-transfer',
  'call.ringing.sip-inbound-caller-hungup-before-call-connect',
  'twilio-failed-to-connect-call',
  'twilio-reported-customer-misdialed',
  'vonage-rejected',
  'voicemail',
  'call-deleted',
] as const;

/** The line was connected and the call ended normally (by either side, a limit, or voicemail). */
const CONNECTED = [
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'assistant-ended-call-with-hangup-task',
  'assistant-ended-call-after-message-spoken',
  'customer-ended-call',
  'customer-ended-call-before-warm-transfer',
  'customer-ended-call-after-warm-transfer-attempt',
  'customer-ended-call-during-transfer',
  'exceeded-max-duration',
  'silence-timed-out',
  'voicemail',
  'call.in-progress.twilio-completed-call',
  'call.in-progress.sip-completed-call',
  'vonage-completed',
  'vonage-disconnected',
  'phone-call-provider-closed-websocket',
  'call.ringing.hook-executed-say',
  'call.ending.hook-executed-say',
];

/** The caller was handed to someone else: counted as a transfer. */
const TRANSFERRED = [
  'assistant-forwarded-call',
  'assistant-request-returned-forwarding-phone-number',
  'call.ringing.hook-executed-transfer',
  'call.ending.hook-executed-transfer',
];

/** Never connected, and nothing broke: failed, without an error. */
const NEVER_CONNECTED: Record<string, string | null> = {
  'customer-did-not-answer': 'no-answer',
  'customer-busy': null,
  'manually-canceled': null,
  'scheduled-call-deleted': null,
  'call-deleted': null,
  'twilio-reported-customer-misdialed': null,
  'call.ringing.sip-inbound-caller-hungup-before-call-connect': null,
  'vonage-rejected': null,
  'customer-did-not-give-microphone-permission': null,
};

const NOW = Date.parse('2026-11-25T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const call = (over: Record<string, unknown>) => {
  const parsed = parseVapiCall(
    {
      id: '0c4f8a52-6a43-4f0e-9f3e-2d5b8c1a7e90',
      type: 'outboundPhoneCall',
      createdAt: iso(NOW - 120_000),
      startedAt: iso(NOW - 120_000),
      endedAt: iso(NOW - 30_000),
      status: 'ended',
      customer: { number: '+14155550111' },
      phoneNumber: { number: '+14155550100' },
      ...over,
    },
    NOW,
  );
  if (!parsed.success) throw new Error(parsed.message);
  return parsed.call;
};

describe('Vapi endedReason: every value of the SDK’s enum', () => {
  it('the expectations name only values of the enum', () => {
    const all = new Set<string>(VAPI_ENDED_REASONS);
    expect(all.size).toBe(571);
    for (const reason of [...CONNECTED, ...TRANSFERRED, ...Object.keys(NEVER_CONNECTED)])
      expect(all.has(reason), reason).toBe(true);
  });

  it.each(VAPI_ENDED_REASONS.map((reason) => [reason]))('%s', (reason) => {
    const read = call({ endedReason: reason });
    const insights = read.insights;
    if (CONNECTED.includes(reason)) {
      expect(read.status).toBe('completed');
      expect(insights?.errorMessage).toBeNull();
      if (reason === 'voicemail') expect(insights?.answeredBy).toBe('voicemail');
    } else if (TRANSFERRED.includes(reason)) {
      expect(read.status).toBe('transferred');
      expect(insights?.errorMessage).toBeNull();
    } else if (reason in NEVER_CONNECTED) {
      expect(read.status).toBe('failed');
      expect(insights?.errorMessage).toBeNull();
      expect(insights?.answeredBy).toBe(NEVER_CONNECTED[reason]);
    } else {
      // Everything else is a fault of Vapi, a provider behind it, the set-up or the line.
      expect(read.status).toBe('failed');
      expect(insights?.errorMessage).toBe(reason);
      expect(insights?.answeredBy).toBeNull();
    }
  });

  it('reads a reason outside the enum by its words: an error fails, anything else is unknown', () => {
    expect(call({ endedReason: 'call.in-progress.error-something-new' }).status).toBe('failed');
    expect(call({ endedReason: 'some-new-ending' }).status).toBe('unknown');
    // Named in the brief but not in the SDK's enum: the transfer target did not answer.
    expect(call({ endedReason: 'call.forwarding.no-answer' }).status).toBe('failed');
  });
});

describe('Vapi CallStatus: every value of the SDK’s enum', () => {
  it.each([
    ['scheduled', 'active'],
    ['queued', 'active'],
    ['ringing', 'active'],
    ['in-progress', 'active'],
    ['forwarding', 'active'],
    ['ended', 'completed'],
    // Answers about the call record, not the call: never "active", never a made-up outcome.
    ['not-found', 'unknown'],
    ['deletion-failed', 'unknown'],
  ])('%s without an ended reason reads as %s', (status, expected) => {
    expect(call({ status, endedReason: undefined, endedAt: undefined }).status).toBe(expected);
  });

  it('an ended reason decides once given, whatever the status says', () => {
    expect(call({ status: 'deletion-failed', endedReason: 'customer-busy' }).status).toBe('failed');
    expect(call({ status: 'in-progress', endedReason: 'customer-ended-call' }).status).toBe('completed');
  });
});

/**
 * fixtures/vapi-end-of-call-report.json: the conversation of fixtures/README.md as Vapi's
 * end-of-call report. The lines below are the README's table, written out independently.
 */
const FIXTURE_LINES = [
  ['agent', 0, 4000],
  ['user', 4500, 7000],
  ['agent', 8200, 12000],
  ['user', 11800, 14000],
  ['agent', 17500, 21000],
  ['user', 20000, 23000],
  ['agent', 27500, 31000],
  ['user', 37000, 39000],
  ['agent', 40200, 45000],
  ['user', 45500, 47000],
  ['agent', 48000, 50000],
];
const FIXTURE_NOW = Date.parse('2026-03-05T00:00:00Z');
const linesOf = (transcript: { role: string; startMs?: number; endMs?: number }[] | null | undefined) =>
  (transcript ?? []).map((l) => [l.role, l.startMs, l.endMs]);
const fixtureMessages = vapiFixture.message.artifact.messages as Record<string, unknown>[];
const withMessages = (messages: unknown[]) =>
  call({ endedReason: 'customer-ended-call', artifact: { messages } });

/** Who ended the call, stated here for every value of the SDK's enum. */
const CALLER_ENDED = [
  'customer-ended-call',
  'customer-ended-call-before-warm-transfer',
  'customer-ended-call-after-warm-transfer-attempt',
  'customer-ended-call-during-transfer',
];
const AGENT_ENDED = [
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'assistant-ended-call-after-message-spoken',
  'assistant-ended-call-with-hangup-task',
];

describe('Vapi timed transcript and conversation', () => {
  it('reads the fixture: secondsFromStart, lasting endTime − time; system and tool messages left out', () => {
    const parsed = parseVapiWebhook(JSON.stringify(vapiFixture), {}, null, FIXTURE_NOW);
    if (parsed.kind !== 'call') throw new Error(parsed.kind);
    expect(linesOf(parsed.call.transcript)).toEqual(FIXTURE_LINES);
    expect(parsed.call.transcript?.[5].text).toBe('March third, nineteen eighty-five.');
    expect(parsed.call.conversation).toEqual({ precision: 'message', endedBy: 'agent', sentiment: null });
    expect(parsed.call.durationSeconds).toBe(52);
  });

  it('is approx when a kept line lacks a time, or only the plain transcript came', () => {
    for (const drop of ['secondsFromStart', 'endTime', 'time'] as const) {
      const messages = fixtureMessages.map((m, i) => {
        if (i !== 3) return m;
        const { [drop]: _gone, ...rest } = m;
        return rest;
      });
      const read = withMessages(messages);
      expect(read.conversation?.precision, drop).toBe('approx');
      expect(read.transcript?.[2], drop).not.toHaveProperty('startMs');
      expect(read.transcript?.[1]).toMatchObject({ startMs: 4500, endMs: 7000 });
    }
    // A message that ends before it begins, or one sent as text, is not timed either.
    expect(messageSpan({ role: 'bot', time: 10, endTime: 5, secondsFromStart: 1 })).toBeNull();
    expect(messageSpan({ role: 'bot', time: 10, endTime: 20, secondsFromStart: '1' })).toBeNull();
    expect(messageSpan({ role: 'bot', time: 10, endTime: 20.4, secondsFromStart: 1.0004 })).toEqual({
      startMs: 1000,
      endMs: 1010,
    });
    const plain = call({
      endedReason: 'customer-ended-call',
      artifact: { transcript: 'AI: Hi\nUser: Hello' },
    });
    expect(plain.conversation).toEqual({ precision: 'approx', endedBy: 'caller', sentiment: null });
  });

  it('a call without messages or a transcript (a list item may have none) has no conversation', () => {
    const bare = call({ endedReason: 'customer-ended-call' });
    expect(bare.transcript).toBeNull();
    expect(bare.conversation).toBeUndefined();
  });

  it.each(VAPI_ENDED_REASONS.map((reason) => [reason]))('endedReason %s: who ended the call', (reason) => {
    const expected = CALLER_ENDED.includes(reason)
      ? 'caller'
      : AGENT_ENDED.includes(reason)
        ? 'agent'
        : TRANSFERRED.includes(reason)
          ? 'transfer'
          : 'system';
    expect(vapiEndedBy(reason)).toBe(expected);
  });

  it('no ended reason: unknown', () => {
    expect(vapiEndedBy('')).toBe('unknown');
    expect(withMessages(fixtureMessages).conversation?.endedBy).toBe('caller');
    expect(call({ endedReason: undefined, artifact: { messages: [] } }).conversation?.endedBy).toBe(
      'unknown',
    );
  });

  it('reads a stored payload back (the report as one call, less a top-level `transcript`), never throwing', () => {
    const stored = callOfReport(vapiFixture.message as Record<string, unknown>) as Record<string, unknown>;
    for (const kept of [stored, JSON.stringify(stored)]) {
      const reading = readVapiStoredPayload(kept);
      expect(linesOf(reading.transcript)).toEqual(FIXTURE_LINES);
      expect(reading.conversation).toEqual({ precision: 'message', endedBy: 'agent', sentiment: null });
    }
    const { artifact: _a, ...short } = stored;
    expect(readVapiStoredPayload({ _truncated: true, ...short })).toEqual({
      transcript: null,
      conversation: { precision: 'approx', endedBy: 'agent', sentiment: null },
    });
    for (const unreadable of [null, undefined, 7, 'not json', '"text"', [], {}, { id: 'a/b' }])
      expect(readVapiStoredPayload(unreadable)).toEqual({ transcript: null, conversation: null });
  });
});
