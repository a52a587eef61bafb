package topic_test

import (
	"encoding/json"
	"fmt"

	"github.com/zaxy/zaxy/eventloom"
)

// topics are small vocabularies; sentences drawn from one topic's words make its words
// co-occur, which is all a latent model learns from.
var topics = map[string][]string{
	"photo":   {"photography", "camera", "lens", "flash", "sony", "tripod", "aperture", "portrait"},
	"cooking": {"recipe", "oven", "dough", "bake", "flour", "butter", "sourdough", "kitchen"},
	"garden":  {"garden", "tomato", "soil", "compost", "seedling", "watering", "mulch", "greenhouse"},
	"money":   {"budget", "savings", "mortgage", "interest", "retirement", "pension", "stocks", "taxes"},
	"travel":  {"flight", "hotel", "passport", "itinerary", "luggage", "airport", "visa", "beach"},
}

// topicOrder fixes the order sessions are appended in.
var topicOrder = []string{"photo", "cooking", "garden", "money", "travel"}

// message is a chat turn event.
func message(session, role, text string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: "message", SessionID: session, Content: text, Data: json.RawMessage(fmt.Sprintf(`{"role":%q}`, role))}
}

// corpus returns turns sessions per topic, each of `turns` messages built from the topic's
// words (deterministically), with the session's first message given by openers when set.
func corpus(sessionsPerTopic, turns int, openers map[string]string) []eventloom.NewEvent {
	var out []eventloom.NewEvent
	for s := range sessionsPerTopic {
		for _, topic := range topicOrder {
			words := topics[topic]
			session := fmt.Sprintf("%s-%d", topic, s)
			for i := range turns {
				text := fmt.Sprintf("about the %s and the %s, then the %s with %s", words[(i+s)%8], words[(i*3+1+s)%8], words[(i*5+2)%8], words[(i+4)%8])
				if i == 0 && openers[session] != "" {
					text = openers[session]
				}
				role := "user"
				if i%2 == 1 {
					role = "assistant"
				}
				out = append(out, message(session, role, text))
			}
		}
	}
	return out
}
