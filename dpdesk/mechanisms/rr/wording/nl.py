"""Nederlands (u)."""

NAME = "Nederlands"
PERCENT = "{}%"
DECIMAL = ","
SINGULAR = (1,)

_HIDDEN = "zonder dat iemand meekijkt"

T = {
    "warner": (f"Gebruik het toevalsmechanisme {_HIDDEN}. Met een kans van {{p}} krijgt u de uitspraak ‘Ik heb "
               "deze eigenschap’; anders ({q}) krijgt u de uitspraak ‘Ik heb deze eigenschap niet’. Antwoord ‘Ja’ "
               "als de uitspraak die u kreeg voor u klopt, en ‘Nee’ als die niet klopt. Niemand anders weet welke "
               "uitspraak u kreeg."),
    "forced_start": f"Gebruik het toevalsmechanisme {_HIDDEN}, voordat u antwoordt.",
    "forced_truth": "Met een kans van {p} beantwoordt u de vraag naar waarheid.",
    "forced_yes": "Met een kans van {p} antwoordt u gewoon ‘Ja’.",
    "forced_no": "Met een kans van {p} antwoordt u gewoon ‘Nee’.",
    "forced_end": "Niemand anders ziet de uitkomst, dus een ‘Ja’ of een ‘Nee’ verraadt nooit uw echte antwoord.",
    "unrelated": (f"Gebruik het toevalsmechanisme {_HIDDEN}. Met een kans van {{p}} beantwoordt u de gevoelige "
                  "vraag; anders ({rest}) beantwoordt u in plaats daarvan een andere, onschuldige vraag (een vraag "
                  "waarop ongeveer {q} van de mensen ‘Ja’ antwoordt, bijvoorbeeld over een verjaardag). Beantwoord "
                  "de vraag die u kreeg naar waarheid; niemand weet welke het was."),
    "unrelated_unknown": (f"U zit in een van twee groepen. Gebruik het toevalsmechanisme {_HIDDEN}: beantwoord de "
                          "gevoelige vraag met een kans van {p1} in groep 1 en {p2} in groep 2; beantwoord anders de "
                          "onschuldige vraag. Beantwoord de vraag die u kreeg naar waarheid."),
    "crosswise": ("Denk aan twee vragen: de gevoelige vraag (A) en een onschuldige vraag (B) waarvan alleen u het "
                  "antwoord kent (ongeveer {p} van de mensen antwoordt ‘Ja’ op B). Zeg uw antwoorden niet. Kruis "
                  "‘{same}’ aan als uw antwoorden op A en B allebei ‘Ja’ of allebei ‘Nee’ zijn; kruis ‘{different}’ "
                  "aan als het ene antwoord ‘Ja’ en het andere ‘Nee’ is."),
    "triangular": ("Denk aan twee vragen: de gevoelige vraag (A) en een onschuldige vraag (B) waarvan alleen u het "
                   "antwoord kent (ongeveer {p} van de mensen antwoordt ‘Ja’ op B). Zeg uw antwoorden niet. Kruis "
                   "‘{at_least}’ aan als uw antwoord op A of op B of op allebei ‘Ja’ is; kruis ‘{both_no}’ alleen "
                   "aan als beide antwoorden ‘Nee’ zijn."),
    "mangat": (f"Als u deze eigenschap hebt, antwoordt u ‘Ja’. Zo niet, gebruik dan het toevalsmechanisme {_HIDDEN}: "
               "met een kans van {p} antwoordt u naar waarheid ‘Nee’, anders ({rest}) antwoordt u ‘Ja’."),
    "kuk": ("U hebt twee stapels kaarten: in stapel 1 is {p1} van de kaarten rood, in stapel 2 is {p2} van de "
            "kaarten rood. Als u deze eigenschap hebt, gebruikt u stapel 1; zo niet, stapel 2. Trek {cards}. Noem "
            "alleen {report}; zeg nooit welke stapel u gebruikte."),
    "kuk_one": "één kaart",
    "kuk_many": "{n} kaarten, één voor één, en leg elke kaart terug",
    "kuk_colour": "de kleur, rood of zwart",
    "kuk_count": "hoeveel ervan rood waren",
    "sld": (f"U zit in een van twee groepen. Gebruik het toevalsmechanisme {_HIDDEN}: met een kans van {{p1}} in "
            "groep 1 ({p2} in groep 2) beantwoordt u de vraag naar waarheid; anders antwoordt u ‘Ja’. De analyse "
            "schat ook hoeveel deelnemers zich niet aan de instructies houden."),
    "cdm": (f"U zit in een van twee groepen. Gebruik het toevalsmechanisme {_HIDDEN}: met een kans van {{p1}} in "
            "groep 1 ({p2} in groep 2) antwoordt u gewoon ‘Ja’; anders beantwoordt u de vraag naar waarheid. De "
            "analyse schat ook hoeveel deelnemers ‘Nee’ zeggen, wat de uitkomst ook is."),
    "forced_multi": (f"Gebruik het toevalsmechanisme {_HIDDEN}. Met een kans van {{t}} geeft u uw echte antwoord. "
                     "Anders bepaalt de uitkomst uw antwoord: {rest}."),
    "forced_multi_part": "met {p} het antwoord ‘{c}’",
    "krr": (f"Gebruik het toevalsmechanisme {_HIDDEN}. Met een kans van {{keep}} noemt u uw echte categorie; elke "
            "andere categorie noemt u met een kans van {other}."),
    "unary": (f"Gebruik het toevalsmechanisme voor elke optie apart, {_HIDDEN}: als de optie op u van toepassing is, "
              "kruist u die aan met een kans van {p}; als die niet op u van toepassing is, kruist u die aan met een "
              "kans van {q}."),
    "custom_start": f"Gebruik het toevalsmechanisme {_HIDDEN}.",
    "custom_line": "Wie in werkelijkheid tot de groep ‘{s}’ hoort, antwoordt {parts}.",
    "custom_part": "‘{r}’ met een kans van {p}",
    # the card
    "how": "Zo antwoordt u: ",
    "randomizer": "Uw toevalsmechanisme: ",
    "options_unary": "Opties (kruis alle opties aan die na het toevalsmechanisme aangekruist blijven): ",
    "answer_one": "Antwoord (kruis er één aan): ",
    "nobody": "Niemand, ook de onderzoekers niet, kan alleen uit uw antwoord afleiden wat voor u waar is.",
    "b_placeholder": "[schrijf hier de onschuldige vraag{about}]",
    "b_about": " waarop ongeveer {p} van de mensen ‘Ja’ antwoordt",
    "title": "Lees dit voordat u antwoordt",
    # the randomizers
    "or": " of ",
    "to": "{a} tot en met {b}",
    "does_a": "beantwoordt u vraag A", "does_b": "beantwoordt u vraag B",
    "card_a": "Vraag A", "card_b": "Vraag B",
    "does_category": "antwoordt u ‘{c}’",
    "does_truth": "beantwoordt u de vraag naar waarheid",
    "does_yes": "antwoordt u ‘Ja’",
    "does_no": "antwoordt u ‘Nee’",
    "die": f"Gooi {_HIDDEN} met een eerlijke dobbelsteen met {{sides}} zijden.",
    "die_if": "Gooit u {faces}, dan {does}.",
    "dice": f"Gooi {_HIDDEN} met {{n}} eerlijke dobbelstenen met {{sides}} zijden en tel de ogen op.",
    "dice_if": "Is het totaal {faces}, dan {does}.",
    "cards": f"Trek {_HIDDEN} één kaart uit de geschudde stapel van {{total}} kaarten en leg die terug.",
    "card_truth": "Naar waarheid antwoorden", "card_yes": "Ja zeggen", "card_no": "Nee zeggen",
    "card_if": "Staat er ‘{label}’ op de kaart, dan {does}.",
    "coins": f"Gooi {_HIDDEN} {{n}} munten, de ene na de andere.",
    "coin": f"Gooi {_HIDDEN} een munt.",
    "heads": "kop", "tails": "munt", "then": ", daarna ",
    "coin_if": "Gooit u eerst {seq}, dan {does}.",
    "coin_all": "Gooit u {seq}, dan {does}.",
    "exact": "Elk toevalsmechanisme dat alleen u ziet, met deze kansen (bijvoorbeeld een app voor willekeurige getallen).",
    "birthday": "Is uw moeder jarig in {months}?",
}

# online and interview fielding: why the answer is private, whose randomizer, the group question
T.update({
    'interview_randomizer': 'Gebruik het toevalsmechanisme dat de interviewer u geeft, buiten het zicht van de interviewer, en zeg de uitkomst nooit hardop: alleen uw antwoord wordt genoteerd.',
    'why_private_two': 'Waarom uw antwoord vertrouwelijk blijft: u zegt op geen van beide vragen uw antwoord, alleen of de antwoorden hetzelfde zijn (of dat er minstens één ‘Ja’ is), en alleen u kent uw antwoord op vraag B. Niemand, niet de onderzoekers en niet de enquête, kan eruit afleiden wat voor u waar is.',
    'why_private_interview': 'Waarom uw antwoord vertrouwelijk blijft: de interviewer ziet uw toevalsmechanisme nooit, alleen het antwoord dat u geeft, en dat antwoord kan van het toevalsmechanisme komen in plaats van de waarheid. Niemand, niet de interviewer en niet de onderzoekers, kan eruit afleiden wat voor u waar is.',
    'why_private': 'Waarom uw antwoord vertrouwelijk blijft: de enquête ziet nooit uw munt, dobbelsteen of verjaardag, alleen het antwoord dat u aankruist, en dat antwoord kan van het toevalsmechanisme komen in plaats van de waarheid. Niemand, niet de onderzoekers en niet de enquêtewebsite, kan eruit afleiden wat voor u waar is.',
    'own_randomizer': 'Gebruik uw eigen toevalsmechanisme, buiten het zicht van anderen (bijvoorbeeld een munt of dobbelsteen die u thuis gooit); gebruik er nooit een op deze website en typ de uitkomst hier nooit in.',
    'group_question': 'Op welke dag van de maand bent u jarig?',
    'group_odd': 'Een oneven dag (1, 3, 5 … 31): groep 1',
    'group_even': 'Een even dag (2, 4, 6 … 30): groep 2',
    'group_note': 'Uw groep bepaalt alleen welke van de twee instructies hieronder u volgt; over uw antwoord zegt die niets.',
    'ticked': 'Aangekruist',
    'not_ticked': 'Niet aangekruist',
})

LABELS = {
    "no": ("Nee", "nee"), "yes": ("Ja", "ja"),
    "different": ("De antwoorden zijn verschillend", "verschillend"),
    "same": ("Beide antwoorden zijn hetzelfde", "hetzelfde"),
    "both_no": ("Allebei nee", "allebei nee"), "at_least": ("Minstens één ja", "minstens één ja"),
    "black": ("Zwarte kaart", "zwart"), "red": ("Rode kaart", "rood"),
    "red_one": "{k} rode kaart", "red_many": "{k} rode kaarten", "red_short": ("{k} rood", "{k} rood"),
}

WORDS = {"no": "nee", "yes": "ja", "non-carrier": "zonder de eigenschap", "carrier": "met de eigenschap"}

MONTHS = ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
          "november", "december")
