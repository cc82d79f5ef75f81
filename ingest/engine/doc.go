// Package engine asks the real answer and search engines a check's passes:
// ChatGPT through the OpenAI Responses API, Perplexity through the Sonar
// API, and Google's search page, shopping page, AI Overview and AI Mode
// through SerpApi or DataForSEO. Every adapter implements ingest.Engine and
// turns the provider's response into an ingest.Capture; FromEnv builds the
// Router the check worker asks, which sends each pass to the simulator or
// to these adapters.
//
// # Failures
//
// Every error an adapter returns is an *Error with a Kind: Timeout,
// RateLimited (with the provider's Retry-After), Unavailable (5xx, network,
// the provider cannot answer now), Rejected (4xx other than 429: bad key,
// bad request; asking again gives the same answer) or Malformed (a 2xx body
// that cannot be read). Error.Retryable is true for the first three. A
// caller's cancelled context is Unavailable (the pass is retried, not
// failed) and its expired deadline a Timeout. Errors never carry
// credentials: SerpApi's key travels in the query string, which is dropped
// from transport errors.
//
// # Configuration
//
// FromEnv reads:
//
//	SIGHTLINE_ENGINES    simulator (default): every engine is answered by the
//	                     deterministic simulator. live: the adapters below;
//	                     every variable marked required must then be set.
//	SIGHTLINE_SIMULATOR_LATENCY  simulator only: how long each answer takes,
//	                     a duration (2s) or a uniform range (5s-30s), as a
//	                     live engine would; default none.
//	ENGINE_TIMEOUT       per-request timeout, a Go duration (45s, 2m) or whole
//	                     seconds; default 60s.
//	OPENAI_API_KEY       required (live): chatgpt.
//	OPENAI_MODEL         Responses API model with web_search; default gpt-5-mini.
//	OPENAI_BASE_URL      default https://api.openai.com (a trailing /v1 is
//	                     accepted).
//	PERPLEXITY_API_KEY   required (live): perplexity.
//	PERPLEXITY_MODEL     Sonar model; default sonar.
//	PERPLEXITY_BASE_URL  default https://api.perplexity.ai.
//	SERP_PROVIDER        serpapi (default) or dataforseo: who answers
//	                     google_serp, google_ai_overview and google_ai_mode.
//	                     google_shopping is always SerpApi (DataForSEO has
//	                     no live Google Shopping endpoint).
//	SERPAPI_API_KEY      required (live): google_shopping, and the other
//	                     Google engines with SERP_PROVIDER=serpapi.
//	SERPAPI_BASE_URL     default https://serpapi.com.
//	DATAFORSEO_LOGIN     required with SERP_PROVIDER=dataforseo.
//	DATAFORSEO_PASSWORD  required with SERP_PROVIDER=dataforseo.
//	DATAFORSEO_BASE_URL  default https://api.dataforseo.com (a trailing /v3
//	                     is accepted).
//
// # Country and locale
//
// A pass's country reaches OpenAI as web_search user_location.country,
// Perplexity as web_search_options.user_location.country, SerpApi as gl and
// DataForSEO as location_code. Its locale reaches SerpApi as hl and
// DataForSEO as language_code; OpenAI and Perplexity have no parameter that
// asks in a language without filtering sources, so there the locale is
// carried by the query text itself.
//
// # Citations and links
//
// Citations are ranked by first citation and de-duplicated by URL. URLs are
// kept exactly as the engine gave them: OpenAI's utm_source=openai
// parameter, #:~:text= fragments, and redirectors (Google redirect_link,
// google.com/searchviewer references) stay; extraction normalises them and
// marks redirectors unresolved.
package engine
