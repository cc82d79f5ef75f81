package ingest

import (
	"testing"
)

// extractTypicalAnswer is a typical 3 KB answer: intro, a numbered list of
// bold brands with descriptions, a table, a recommendation paragraph and
// ChatGPT citation chips.
const extractTypicalAnswer = `Great question! Choosing a help desk depends on your team size, budget and channels. Here are the strongest options in 2025, based on reviews and pricing pages ([g2.com](https://www.g2.com/categories/help-desk?utm_source=openai)).

## Best Help Desk Software

1. **Zendesk** – The industry standard. Zendesk offers omnichannel support, robust automation, and a huge app marketplace. However, it can get expensive as you scale, and the admin console has a steep learning curve ([zendesk.com](https://www.zendesk.com/pricing/?utm_source=openai)).
2. **Freshdesk** – A budget-friendly alternative with a generous free plan. It's intuitive and easy to set up, though reporting is limited on lower tiers.
3. **Acme** – Ideal for teams that need deep Salesforce integration. Not the cheapest option, but very reliable, and its AI triage is praised by agents ([acme.com](https://acme.com/blog/ai-triage?utm_source=openai)).
4. **Help Scout** – Known for its simple, email-like interface; great for small teams that value a personal touch.
5. **HubSpot Service Hub** – Best if you already use HubSpot CRM, since tickets and contacts live in one place.
6. **Gorgias** – Built for e-commerce brands on Shopify, with order data right inside each ticket.

### Quick comparison

| Tool | Starting price | Best for |
|---|---|---|
| Zendesk | $55/agent | Enterprises |
| Freshdesk | Free | Startups |
| Acme | $29/agent | Salesforce users |
| Help Scout | $20/agent | Small teams |

**My recommendation:** If you're a small team on a budget, go with Freshdesk. For larger organizations, Zendesk or Acme are both solid choices. Unlike Zendesk, Acme doesn't charge for light agents, and its setup is faster than Zendesk's. Alternatives such as Kayako, Front and Gladly are also worth a look if you need shared inboxes or voice-first support.

If you tell me your team size and main channels (email, chat, phone), I can narrow this down further.`

func extractTypical() Answer {
	return Answer{Text: extractTypicalAnswer, Citations: []Citation{
		{Position: 1, URL: "https://www.g2.com/categories/help-desk?utm_source=openai"},
		{Position: 2, URL: "https://www.zendesk.com/pricing/?utm_source=openai"},
		{Position: 3, URL: "https://acme.com/blog/ai-triage?utm_source=openai"},
	}}
}

// BenchmarkExtractAnswer measures the extraction of a typical answer.
func BenchmarkExtractAnswer(b *testing.B) {
	brands := extractBrands()
	a := extractTypical()
	b.SetBytes(int64(len(a.Text)))
	b.ReportAllocs()
	for b.Loop() {
		ExtractAnswer(brands, a)
	}
}
