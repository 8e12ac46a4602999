"""Writes the small nugget study in this directory (issue 28): 4 answering
systems x 20 topics; human nugget assignments for 8 topics (human.tsv, the
long TSV) and LLM assignments for all 20 (auto.jsonl, nuggetizer's JSONL).

Everything is made up by us: the questions and nuggets are plausible, the
systems differ in quality (ragbase < ragrerank < ragcite < ragfull) and the
LLM judge agrees with the human one most of the time, a little more lenient
(it turns some not_support into partial_support and some partial into
support).  Deterministic: ``python make_nuggets.py`` rewrites the same bytes.
"""

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SYSTEMS = {"ragbase": 0.35, "ragrerank": 0.45, "ragcite": 0.55, "ragfull": 0.65}
HUMAN_TOPICS = 8

# qid, question, nuggets (text, importance)
TOPICS = [
    ("2024-101", "how do vaccines train the immune system",
     [("vaccines expose the body to an antigen", "vital"),
      ("memory B and T cells are formed", "vital"),
      ("a later infection is fought off faster", "vital"),
      ("some vaccines need booster doses", "okay"),
      ("mRNA vaccines carry instructions for a protein", "okay")]),
    ("2024-102", "why is the sky blue",
     [("sunlight is scattered by air molecules", "vital"),
      ("shorter wavelengths scatter more (Rayleigh scattering)", "vital"),
      ("sunsets look red because light travels through more air", "okay"),
      ("our eyes are more sensitive to blue than violet", "okay")]),
    ("2024-103", "what causes inflation",
     [("demand grows faster than supply", "vital"),
      ("production costs rise (cost-push)", "vital"),
      ("money supply growth can raise prices", "vital"),
      ("expectations of inflation feed wage demands", "okay"),
      ("central banks raise interest rates to curb it", "okay"),
      ("energy prices are a frequent driver", "okay")]),
    ("2024-104", "how does a heat pump work",
     [("it moves heat rather than generating it", "vital"),
      ("a refrigerant evaporates and condenses in a cycle", "vital"),
      ("a compressor raises the refrigerant's temperature", "vital"),
      ("it can heat and cool by reversing the cycle", "okay"),
      ("efficiency drops in very cold weather", "okay")]),
    ("2024-105", "what is the difference between weather and climate",
     [("weather is short-term atmospheric conditions", "vital"),
      ("climate is the long-term average of weather", "vital"),
      ("climate is usually averaged over 30 years", "okay"),
      ("a cold day does not disprove warming", "okay")]),
    ("2024-106", "how do noise cancelling headphones work",
     [("microphones pick up ambient sound", "vital"),
      ("the headphones play an inverted sound wave", "vital"),
      ("the waves cancel by destructive interference", "vital"),
      ("they work best on low steady sounds", "okay")]),
    ("2024-107", "why do cats purr",
     [("cats purr when content", "vital"),
      ("cats also purr when stressed or injured", "vital"),
      ("purring is made by the laryngeal muscles", "okay"),
      ("purr frequencies may help heal bones", "okay"),
      ("kittens purr while nursing", "okay")]),
    ("2024-108", "what are the benefits of intermittent fasting",
     [("it can help with weight loss", "vital"),
      ("it may improve insulin sensitivity", "vital"),
      ("evidence is mixed compared with calorie restriction", "vital"),
      ("common schedules are 16:8 and 5:2", "okay"),
      ("it is not advised during pregnancy", "okay")]),
    ("2024-109", "how is glass made",
     [("sand (silica) is melted at high temperature", "vital"),
      ("soda ash lowers the melting point", "vital"),
      ("float glass is formed on molten tin", "okay"),
      ("it is annealed to remove stress", "okay")]),
    ("2024-110", "what does a central bank do",
     [("it sets interest rates", "vital"),
      ("it issues the currency", "vital"),
      ("it acts as lender of last resort", "vital"),
      ("it supervises commercial banks", "okay"),
      ("it manages foreign exchange reserves", "okay")]),
    ("2024-111", "how do tides work",
     [("the moon's gravity pulls on the oceans", "vital"),
      ("there are two high tides a day", "vital"),
      ("the sun also contributes (spring and neap tides)", "okay"),
      ("coastline shape changes the tidal range", "okay")]),
    ("2024-112", "what is a black hole",
     [("a region where gravity prevents light from escaping", "vital"),
      ("it forms when a massive star collapses", "vital"),
      ("the boundary is the event horizon", "vital"),
      ("supermassive black holes sit in galaxy centres", "okay"),
      ("the first image was published in 2019", "okay")]),
    ("2024-113", "how do solar panels produce electricity",
     [("photovoltaic cells absorb photons", "vital"),
      ("photons free electrons in silicon", "vital"),
      ("an inverter converts direct to alternating current", "okay"),
      ("typical efficiency is around 20 percent", "okay")]),
    ("2024-114", "why do leaves change colour in autumn",
     [("chlorophyll breaks down", "vital"),
      ("yellow carotenoids become visible", "vital"),
      ("red anthocyanins are produced in some trees", "okay"),
      ("shorter days trigger the change", "okay")]),
    ("2024-115", "what is the gig economy",
     [("work is arranged as short-term tasks or contracts", "vital"),
      ("platforms match workers with customers", "vital"),
      ("workers often lack employee benefits", "vital"),
      ("examples are ride-hailing and delivery apps", "okay")]),
    ("2024-116", "how does caffeine affect the body",
     [("it blocks adenosine receptors", "vital"),
      ("it increases alertness", "vital"),
      ("its half-life is about five hours", "okay"),
      ("high doses can cause anxiety and insomnia", "okay"),
      ("tolerance develops with regular use", "okay")]),
    ("2024-117", "what causes earthquakes",
     [("tectonic plates move and lock", "vital"),
      ("stress is released suddenly along a fault", "vital"),
      ("energy travels as seismic waves", "okay"),
      ("magnitude is measured on a logarithmic scale", "okay")]),
    ("2024-118", "how do bees make honey",
     [("bees collect nectar from flowers", "vital"),
      ("enzymes break down the sugars", "vital"),
      ("water is evaporated by fanning", "vital"),
      ("honey is stored in wax cells and capped", "okay")]),
    ("2024-119", "what is quantum computing",
     [("it uses qubits", "vital"),
      ("qubits can be in superposition", "vital"),
      ("entanglement links qubits", "okay"),
      ("it could break current public-key cryptography", "okay"),
      ("today's machines are noisy and small", "okay")]),
    ("2024-120", "how does the electoral college work",
     [("each state has electors equal to its members of Congress", "vital"),
      ("most states give all electors to the popular vote winner", "vital"),
      ("270 electoral votes are needed to win", "vital"),
      ("Maine and Nebraska split their electors", "okay")]),
]

LEVELS = ("not_support", "partial_support", "support")


def human_label(rng, quality, importance):
    p = quality + (0.1 if importance == "vital" else -0.05)
    u = rng.random()
    if u < p:
        return 2
    return 1 if u < p + 0.15 else 0


def llm_label(rng, h):
    u = rng.random()
    if u < 0.75:
        return h
    if u < 0.92:
        return min(h + 1, 2)          # lenient
    return max(h - 1, 0)


def main():
    rng = random.Random(2024)
    human_lines = ["run\tqid\tnugget_id\timportance\tassignment"]
    auto_records = []
    for t, (qid, question, nuggets) in enumerate(TOPICS):
        for run, quality in SYSTEMS.items():
            q = min(max(quality + rng.uniform(-0.2, 0.2), 0.05), 0.95)   # topic difficulty
            labels = []
            for k, (text, imp) in enumerate(nuggets, 1):
                h = human_label(rng, q, imp)
                a = llm_label(rng, h)
                labels.append((k, text, imp, h, a))
            if t < HUMAN_TOPICS:
                for k, text, imp, h, a in labels:
                    human_lines.append(f"{run}\t{qid}\t{qid}-n{k}\t{imp}\t{LEVELS[h]}")
            auto_records.append({
                "qid": qid, "query": question, "run_id": run,
                "nuggets": [{"nugget_id": f"{qid}-n{k}", "text": text, "importance": imp,
                             "assignment": LEVELS[a]} for k, text, imp, h, a in labels]})
    (HERE / "human.tsv").write_text("\n".join(human_lines) + "\n")
    (HERE / "auto.jsonl").write_text("".join(json.dumps(r) + "\n" for r in auto_records))


if __name__ == "__main__":
    main()
