"""Italiano (Lei). ``{p:del}`` and ``{p:il}`` put the article before a percentage, elided where
the number begins with a vowel sound (l'8%, dell'11%, l'80%)."""

NAME = "Italiano"
PERCENT = "{}%"
DECIMAL = ","
SINGULAR = (1,)


def _elided(p: str) -> bool:
    whole = p.split(",")[0].rstrip("%")
    return whole.startswith("8") or whole == "11"


ARTICLES = {
    "del": lambda p: ("dell'" if _elided(p) else "del ") + p,
    "il": lambda p: ("l'" if _elided(p) else "il ") + p,
}

T = {
    "warner": ("Effettui il sorteggio in privato. Con una probabilità {p:del} riceve l'affermazione «Ho questa "
               "caratteristica»; altrimenti ({q}) l'affermazione «Non ho questa caratteristica». Risponda «Sì» se "
               "l'affermazione che ha ricevuto è vera per Lei e «No» se è falsa. Nessun altro sa quale affermazione "
               "ha ricevuto."),
    "forced_start": "Effettui il sorteggio in privato prima di rispondere.",
    "forced_truth": "Con una probabilità {p:del}, risponda sinceramente alla domanda.",
    "forced_yes": "Con una probabilità {p:del}, risponda semplicemente «Sì».",
    "forced_no": "Con una probabilità {p:del}, risponda semplicemente «No».",
    "forced_end": ("Nessun altro vede l'esito del sorteggio, quindi un «Sì» o un «No» non rivela mai la Sua vera "
                   "risposta."),
    "unrelated": ("Effettui il sorteggio in privato. Con una probabilità {p:del}, risponda alla domanda delicata; "
                  "altrimenti ({rest}) risponda invece a un'altra domanda, innocua (una a cui circa {q:il} delle "
                  "persone risponde «Sì», per esempio su un compleanno). Risponda sinceramente alla domanda che Le è "
                  "toccata; nessuno sa quale fosse."),
    "unrelated_unknown": ("Lei fa parte di uno di due gruppi. Effettui il sorteggio in privato: risponda alla domanda "
                          "delicata con una probabilità {p1:del} nel gruppo 1 e {p2:del} nel gruppo 2; altrimenti "
                          "risponda alla domanda innocua. Risponda sinceramente alla domanda che Le è toccata."),
    "crosswise": ("Pensi a due domande: la domanda delicata (A) e una domanda innocua (B) di cui solo Lei conosce la "
                  "risposta (circa {p:il} delle persone risponde «Sì» a B). Non dica le Sue risposte. Barri "
                  "«{same}» se le Sue risposte ad A e a B sono entrambe «Sì» o entrambe «No»; barri «{different}» se "
                  "una è «Sì» e l'altra «No»."),
    "triangular": ("Pensi a due domande: la domanda delicata (A) e una domanda innocua (B) di cui solo Lei conosce "
                   "la risposta (circa {p:il} delle persone risponde «Sì» a B). Non dica le Sue risposte. Barri "
                   "«{at_least}» se la Sua risposta ad A, a B o a entrambe è «Sì»; barri «{both_no}» solo se "
                   "entrambe le risposte sono «No»."),
    "mangat": ("Se ha questa caratteristica, risponda «Sì». Se non ce l'ha, effettui il sorteggio in privato: con "
               "una probabilità {p:del} risponda sinceramente «No», altrimenti ({rest}) risponda «Sì»."),
    "kuk": ("Ha due mazzi di carte: nel mazzo 1 sono rosse {p1:il} delle carte, nel mazzo 2 {p2:il}. Se ha questa "
            "caratteristica, usi il mazzo 1; altrimenti il mazzo 2. Peschi {cards}. Indichi solo {report}; non "
            "dica mai quale mazzo ha usato."),
    "kuk_one": "una carta",
    "kuk_many": "{n} carte, una alla volta, rimettendo ogni carta nel mazzo",
    "kuk_colour": "il colore, rosso o nero",
    "kuk_count": "quante erano rosse",
    "sld": ("Lei fa parte di uno di due gruppi. Effettui il sorteggio in privato: con una probabilità {p1:del} nel "
            "gruppo 1 ({p2:del} nel gruppo 2) risponda sinceramente alla domanda; altrimenti risponda «Sì». "
            "L'analisi stima anche quante persone non seguono le istruzioni."),
    "cdm": ("Lei fa parte di uno di due gruppi. Effettui il sorteggio in privato: con una probabilità {p1:del} nel "
            "gruppo 1 ({p2:del} nel gruppo 2) risponda semplicemente «Sì»; altrimenti risponda sinceramente alla "
            "domanda. L'analisi stima anche quante persone rispondono «No» qualunque sia l'esito del sorteggio."),
    "forced_multi": ("Effettui il sorteggio in privato. Con una probabilità {t:del} dia la Sua vera risposta. "
                     "Altrimenti è il sorteggio a decidere la Sua risposta: {rest}."),
    "forced_multi_part": "con {p:il} risponda «{c}»",
    "krr": ("Effettui il sorteggio in privato. Con una probabilità {keep:del} indichi la Sua vera categoria; "
            "ciascuna delle altre categorie viene indicata con una probabilità {other:del}."),
    "unary": ("Per ogni opzione separatamente, effettui il sorteggio in privato: se l'opzione La riguarda, la barri "
              "con una probabilità {p:del}; se non La riguarda, la barri con una probabilità {q:del}."),
    "custom_start": "Effettui il sorteggio in privato.",
    "custom_line": "Chi in realtà appartiene al gruppo «{s}» risponde {parts}.",
    "custom_part": "«{r}» con una probabilità {p:del}",
    # the card
    "how": "Come rispondere: ",
    "randomizer": "Il Suo sorteggio: ",
    "options_unary": "Opzioni (barri tutte quelle che il sorteggio lascia barrate): ",
    "answer_one": "Risposta (ne barri una): ",
    "nobody": ("Nessuno, nemmeno il gruppo di ricerca, può sapere dalla sola Sua risposta che cosa è vero nel "
               "Suo caso."),
    "b_placeholder": "[scriva qui la domanda innocua{about}]",
    "b_about": " a cui circa {p:il} delle persone risponde «Sì»",
    "title": "La preghiamo di leggere prima di rispondere",
    # the randomizers
    "or": " o ",
    "to": "un numero da {a} a {b}",
    "does_a": "risponda alla domanda A", "does_b": "risponda alla domanda B",
    "card_a": "Domanda A", "card_b": "Domanda B",
    "does_category": "risponda «{c}»",
    "does_truth": "risponda sinceramente alla domanda",
    "does_yes": "risponda «Sì»",
    "does_no": "risponda «No»",
    "die": "Lanci in privato un dado equo a {sides} facce, senza che nessuno veda il risultato.",
    "die_if": "Se esce {faces}, {does}.",
    "dice": "Lanci in privato {n} dadi equi a {sides} facce, senza che nessuno li veda, e sommi i risultati.",
    "dice_if": "Se la somma è {faces}, {does}.",
    "cards": "Peschi in privato una carta dal mazzo mescolato di {total} carte e la rimetta nel mazzo.",
    "card_truth": "Rispondere sinceramente", "card_yes": "Dire sì", "card_no": "Dire no",
    "card_if": "Se la carta dice «{label}», {does}.",
    "coins": "Lanci in privato {n} monete, una dopo l'altra, senza che nessuno veda il risultato.",
    "coin": "Lanci in privato una moneta, senza che nessuno veda il risultato.",
    "heads": "testa", "tails": "croce", "then": ", poi ",
    "coin_if": "Se esce prima {seq}, {does}.",
    "coin_all": "Se esce {seq}, {does}.",
    "exact": "Un qualsiasi sorteggio privato con queste probabilità (per esempio un'app di numeri casuali).",
    "birthday": "Il compleanno di Sua madre è in {months}?",
}

# online and interview fielding: why the answer is private, whose randomizer, the group question
T.update({
    'interview_randomizer': "Usi il sorteggio che Le consegna chi La intervista, senza che possa vederne l'esito, e non dica mai il risultato ad alta voce: viene registrata solo la Sua risposta.",
    'why_private_two': 'Perché la Sua risposta resta riservata: Lei non dice mai la Sua risposta a nessuna delle due domande, ma solo se sono uguali (o se almeno una è «Sì»), e solo Lei conosce la Sua risposta alla domanda B. Nessuno, né il gruppo di ricerca né il questionario, può capire da essa che cosa è vero nel Suo caso.',
    'why_private_interview': 'Perché la Sua risposta resta riservata: chi La intervista non vede mai il Suo sorteggio, ma solo la risposta che dà, e quella risposta può venire dal sorteggio invece che dalla verità. Nessuno, né chi La intervista né il gruppo di ricerca, può capire da essa che cosa è vero nel Suo caso.',
    'why_private': 'Perché la Sua risposta resta riservata: il questionario non vede mai la Sua moneta, il Suo dado o il Suo compleanno, ma solo la risposta che barra, e quella risposta può venire dal sorteggio invece che dalla verità. Nessuno, né il gruppo di ricerca né il sito del questionario, può capire da essa che cosa è vero nel Suo caso.',
    'own_randomizer': 'Usi un Suo sorteggio, al riparo dagli sguardi altrui (per esempio una moneta o un dado che lancia a casa); non ne usi mai uno su questo sito e non vi inserisca mai il risultato.',
    'group_question': 'In che giorno del mese è il Suo compleanno?',
    'group_odd': 'Un giorno dispari (1, 3, 5 … 31): gruppo 1',
    'group_even': 'Un giorno pari (2, 4, 6 … 30): gruppo 2',
    'group_note': 'Il Suo gruppo decide soltanto quale delle due istruzioni qui sotto seguire; non dice nulla sulla Sua risposta.',
    'ticked': 'Barrata',
    'not_ticked': 'Non barrata',
})

LABELS = {
    "no": ("No", "no"), "yes": ("Sì", "sì"),
    "different": ("Le risposte sono diverse", "diverse"),
    "same": ("Le due risposte sono uguali", "uguali"),
    "both_no": ("Entrambe no", "entrambe no"), "at_least": ("Almeno un sì", "almeno un sì"),
    "black": ("Carta nera", "nera"), "red": ("Carta rossa", "rossa"),
    "red_one": "{k} carta rossa", "red_many": "{k} carte rosse", "red_short": ("{k} rossa", "{k} rosse"),
}

WORDS = {"no": "no", "yes": "sì", "non-carrier": "senza la caratteristica", "carrier": "con la caratteristica"}

MONTHS = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
          "novembre", "dicembre")
