"""Deutsch (formal: Sie)."""

NAME = "Deutsch"
PERCENT = "{}\u00a0%"
DECIMAL = ","
SINGULAR = (1,)

T = {
    "warner": ("Benutzen Sie den Zufallsgenerator unbeobachtet. Mit einer Wahrscheinlichkeit von {p} erhalten Sie "
               "die Aussage „Ich habe das Merkmal“, andernfalls ({q}) die Aussage „Ich habe das Merkmal nicht“. "
               "Antworten Sie mit „Ja“, wenn die erhaltene Aussage auf Sie zutrifft, und mit „Nein“, wenn sie "
               "nicht zutrifft. Niemand sonst weiß, welche Aussage Sie erhalten haben."),
    "forced_start": "Benutzen Sie den Zufallsgenerator unbeobachtet, bevor Sie antworten.",
    "forced_truth": "Mit einer Wahrscheinlichkeit von {p} beantworten Sie die Frage wahrheitsgemäß.",
    "forced_yes": "Mit einer Wahrscheinlichkeit von {p} antworten Sie einfach mit „Ja“.",
    "forced_no": "Mit einer Wahrscheinlichkeit von {p} antworten Sie einfach mit „Nein“.",
    "forced_end": ("Niemand sonst sieht den Zufallsgenerator, deshalb verrät weder ein „Ja“ noch ein „Nein“ "
                   "Ihre wahre Antwort."),
    "unrelated": ("Benutzen Sie den Zufallsgenerator unbeobachtet. Mit einer Wahrscheinlichkeit von {p} beantworten "
                  "Sie die heikle Frage; andernfalls ({rest}) beantworten Sie stattdessen eine andere, harmlose "
                  "Frage (eine, die etwa {q} der Menschen mit „Ja“ beantworten, zum Beispiel zu einem Geburtstag). "
                  "Beantworten Sie die Frage, die Sie erhalten haben, wahrheitsgemäß; niemand weiß, welche es war."),
    "unrelated_unknown": ("Sie gehören zu einer von zwei Gruppen. Benutzen Sie den Zufallsgenerator unbeobachtet: "
                          "Beantworten Sie die heikle Frage in Gruppe 1 mit einer Wahrscheinlichkeit von {p1} und in "
                          "Gruppe 2 mit einer Wahrscheinlichkeit von {p2}; andernfalls beantworten Sie die andere, "
                          "harmlose Frage. Beantworten Sie die Frage, die Sie erhalten haben, wahrheitsgemäß."),
    "crosswise": ("Denken Sie an zwei Fragen: die heikle Frage (A) und eine harmlose Frage (B), deren Antwort nur Sie "
                  "kennen (etwa {p} der Menschen beantworten B mit „Ja“). Nennen Sie Ihre Antworten nicht. Kreuzen "
                  "Sie „{same}“ an, wenn Ihre Antworten auf A und B beide „Ja“ oder beide „Nein“ lauten; kreuzen Sie "
                  "„{different}“ an, wenn eine Antwort „Ja“ und die andere „Nein“ lautet."),
    "triangular": ("Denken Sie an zwei Fragen: die heikle Frage (A) und eine harmlose Frage (B), deren Antwort nur "
                   "Sie kennen (etwa {p} der Menschen beantworten B mit „Ja“). Nennen Sie Ihre Antworten nicht. "
                   "Kreuzen Sie „{at_least}“ an, wenn Ihre Antwort auf A oder auf B oder auf beide „Ja“ lautet; "
                   "kreuzen Sie „{both_no}“ nur an, wenn beide Antworten „Nein“ lauten."),
    "mangat": ("Wenn Sie das Merkmal haben, antworten Sie mit „Ja“. Wenn nicht, benutzen Sie den Zufallsgenerator "
               "unbeobachtet: Mit einer Wahrscheinlichkeit von {p} antworten Sie wahrheitsgemäß mit „Nein“, "
               "andernfalls ({rest}) mit „Ja“."),
    "kuk": ("Sie haben zwei Kartenstapel: In Stapel 1 sind {p1} der Karten rot, in Stapel 2 sind {p2} der Karten "
            "rot. Wenn Sie das Merkmal haben, benutzen Sie Stapel 1; wenn nicht, Stapel 2. Ziehen Sie {cards}. "
            "Nennen Sie nur {report}; sagen Sie nie, aus welchem Stapel Sie gezogen haben."),
    "kuk_one": "eine Karte",
    "kuk_many": "nacheinander {n} Karten und legen Sie jede zurück",
    "kuk_colour": "ihre Farbe, Rot oder Schwarz",
    "kuk_count": "die Zahl der roten Karten",
    "sld": ("Sie gehören zu einer von zwei Gruppen. Benutzen Sie den Zufallsgenerator unbeobachtet: Mit einer "
            "Wahrscheinlichkeit von {p1} in Gruppe 1 ({p2} in Gruppe 2) beantworten Sie die Frage "
            "wahrheitsgemäß; andernfalls antworten Sie mit „Ja“. Die Auswertung schätzt auch, wie viele Befragte "
            "sich nicht an die Anleitung halten."),
    "cdm": ("Sie gehören zu einer von zwei Gruppen. Benutzen Sie den Zufallsgenerator unbeobachtet: Mit einer "
            "Wahrscheinlichkeit von {p1} in Gruppe 1 ({p2} in Gruppe 2) antworten Sie einfach mit „Ja“; "
            "andernfalls beantworten Sie die Frage wahrheitsgemäß. Die Auswertung schätzt auch, wie viele "
            "Befragte „Nein“ sagen, ganz gleich, was der Zufallsgenerator ergibt."),
    "forced_multi": ("Benutzen Sie den Zufallsgenerator unbeobachtet. Mit einer Wahrscheinlichkeit von {t} geben Sie "
                     "Ihre wahre Antwort. Andernfalls bestimmt der Zufallsgenerator Ihre Antwort: {rest}."),
    "forced_multi_part": "mit {p} die Antwort „{c}“",
    "krr": ("Benutzen Sie den Zufallsgenerator unbeobachtet. Mit einer Wahrscheinlichkeit von {keep} nennen Sie Ihre "
            "wahre Kategorie; jede andere Kategorie nennen Sie mit einer Wahrscheinlichkeit von {other}."),
    "unary": ("Benutzen Sie den Zufallsgenerator für jede Option einzeln und unbeobachtet: Trifft die Option auf Sie "
              "zu, kreuzen Sie sie mit einer Wahrscheinlichkeit von {p} an; trifft sie nicht zu, kreuzen Sie sie mit "
              "einer Wahrscheinlichkeit von {q} an."),
    "custom_start": "Benutzen Sie den Zufallsgenerator unbeobachtet.",
    "custom_line": "Wer in Wahrheit zur Gruppe „{s}“ gehört, antwortet {parts}.",
    "custom_part": "„{r}“ mit einer Wahrscheinlichkeit von {p}",
    # the card
    "how": "So antworten Sie: ",
    "randomizer": "Ihr Zufallsgenerator: ",
    "options_unary": "Optionen (kreuzen Sie alle an, die nach dem Zufallsgenerator angekreuzt bleiben): ",
    "answer_one": "Antwort (bitte eine ankreuzen): ",
    "nobody": "Niemand, auch nicht das Forschungsteam, kann allein aus Ihrer Antwort erkennen, was auf Sie zutrifft.",
    "b_placeholder": "[hier die harmlose Frage eintragen{about}]",
    "b_about": ", die etwa {p} der Menschen mit „Ja“ beantworten",
    "title": "Bitte vor dem Antworten lesen",
    # the randomizers
    "or": " oder ",
    "to": "{a} bis {b}",
    "does_a": "beantworten Sie Frage A", "does_b": "beantworten Sie Frage B",
    "card_a": "Frage A", "card_b": "Frage B",
    "does_category": "antworten Sie mit „{c}“",
    "does_truth": "beantworten Sie die Frage wahrheitsgemäß",
    "does_yes": "antworten Sie mit „Ja“",
    "does_no": "antworten Sie mit „Nein“",
    "die": "Würfeln Sie unbeobachtet mit einem fairen {sides}-seitigen Würfel, sodass niemand das Ergebnis sieht.",
    "die_if": "Zeigt er {faces}, {does}.",
    "dice": "Würfeln Sie unbeobachtet mit {n} fairen {sides}-seitigen Würfeln, sodass niemand sie sieht, und zählen Sie die Augen zusammen.",
    "dice_if": "Ist die Summe {faces}, {does}.",
    "cards": ("Ziehen Sie unbeobachtet eine Karte aus dem gemischten Stapel mit {total} Karten und legen Sie sie "
              "zurück."),
    "card_truth": "Wahrheitsgemäß antworten", "card_yes": "Ja sagen", "card_no": "Nein sagen",
    "card_if": "Steht auf der Karte „{label}“, {does}.",
    "coins": "Werfen Sie unbeobachtet nacheinander {n} Münzen, sodass niemand das Ergebnis sieht.",
    "coin": "Werfen Sie unbeobachtet eine Münze, sodass niemand das Ergebnis sieht.",
    "heads": "Kopf", "tails": "Zahl", "then": ", dann ",
    "coin_if": "Wenn Sie zuerst {seq} werfen, {does}.",
    "coin_all": "Wenn Sie {seq} werfen, {does}.",
    "exact": ("Ein beliebiger unbeobachteter Zufallsgenerator mit diesen Wahrscheinlichkeiten (zum Beispiel eine "
              "Zufallszahlen-App)."),
    "birthday": "Hat Ihre Mutter im {months} Geburtstag?",
}

# online and interview fielding: why the answer is private, whose randomizer, the group question
T.update({
    'interview_randomizer': 'Benutzen Sie den Zufallsgenerator, den Ihnen die interviewende Person gibt, so, dass sie das Ergebnis nicht sieht, und sagen Sie das Ergebnis nie laut: Aufgezeichnet wird nur Ihre Antwort.',
    'why_private_two': 'Warum Ihre Antwort vertraulich bleibt: Sie nennen Ihre Antwort auf keine der beiden Fragen, sondern nur, ob die Antworten gleich sind (oder ob mindestens eine „Ja“ lautet), und nur Sie kennen Ihre Antwort auf Frage B. Niemand, weder das Forschungsteam noch die Umfrage, kann daraus ablesen, was auf Sie zutrifft.',
    'why_private_interview': 'Warum Ihre Antwort vertraulich bleibt: Die interviewende Person sieht Ihren Zufallsgenerator nie, nur Ihre Antwort, und diese Antwort kann vom Zufallsgenerator stammen statt von der Wahrheit. Niemand, weder die interviewende Person noch das Forschungsteam, kann daraus ablesen, was auf Sie zutrifft.',
    'why_private': 'Warum Ihre Antwort vertraulich bleibt: Die Umfrage sieht nie Ihre Münze, Ihren Würfel oder Ihren Geburtstag, sondern nur die Antwort, die Sie ankreuzen, und diese Antwort kann vom Zufallsgenerator stammen statt von der Wahrheit. Niemand, weder das Forschungsteam noch die Umfrage-Website, kann daraus ablesen, was auf Sie zutrifft.',
    'own_randomizer': 'Benutzen Sie Ihren eigenen Zufallsgenerator, unbeobachtet von anderen (zum Beispiel eine Münze oder einen Würfel, die Sie zu Hause werfen); benutzen Sie nie einen auf dieser Website und geben Sie sein Ergebnis hier nie ein.',
    'group_question': 'An welchem Tag des Monats haben Sie Geburtstag?',
    'group_odd': 'An einem ungeraden Tag (1, 3, 5 … 31): Gruppe 1',
    'group_even': 'An einem geraden Tag (2, 4, 6 … 30): Gruppe 2',
    'group_note': 'Ihre Gruppe bestimmt nur, welche der beiden Anleitungen unten Sie befolgen; über Ihre Antwort sagt sie nichts.',
    'ticked': 'Angekreuzt',
    'not_ticked': 'Nicht angekreuzt',
})

LABELS = {
    "no": ("Nein", "nein"), "yes": ("Ja", "ja"),
    "different": ("Die Antworten sind verschieden", "verschieden"),
    "same": ("Beide Antworten sind gleich", "gleich"),
    "both_no": ("Beide Nein", "beide nein"), "at_least": ("Mindestens ein Ja", "mindestens ein ja"),
    "black": ("Schwarze Karte", "schwarz"), "red": ("Rote Karte", "rot"),
    "red_one": "{k} rote Karte", "red_many": "{k} rote Karten", "red_short": ("{k} rot", "{k} rot"),
}

#: dpdesk's default names of responses and states (custom designs), in this language.
WORDS = {"no": "nein", "yes": "ja", "non-carrier": "ohne Merkmal", "carrier": "mit Merkmal"}

MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember")
