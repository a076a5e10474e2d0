"""Name material for synthetic demo players (invented combinations, no real people)."""

SURNAMES = ["Abel", "Adler", "Albers", "Andersen", "Arnold", "Baker", "Balogh", "Barta", "Bauer", "Becker", "Berg", "Bianchi", "Blom", "Bogdan", "Braun", "Brun", "Carter", "Castro", "Costa", "Czerny", "Dahl", "Davies", "Dvorak", "Eriksen", "Esposito", "Falk", "Farkas", "Fischer", "Fontaine", "Fuchs", "Garcia", "Gomez", "Graf", "Gruber", "Haas", "Hahn", "Hansen", "Hartmann", "Horvath", "Hoffmann", "Ivanov", "Jansen", "Jensen", "Kaiser", "Kamińska", "Keller", "Klein", "Koch", "Kovac", "Kowalski", "Kraus", "Kuhn", "Lang", "Larsen", "Laurent", "Lehmann", "Lindqvist", "Lopez", "Maier", "Marino", "Martin", "Meyer", "Molnar", "Moreau", "Muller", "Nagy", "Nielsen", "Novak", "Olsen", "Otto", "Papp", "Pavlov", "Peters", "Petrov", "Popescu", "Quinn", "Richter", "Rossi", "Roth", "Ruiz", "Sandberg", "Santos", "Schmid", "Schneider", "Schulz", "Silva", "Simon", "Sorensen", "Stein", "Szabo", "Tanaka", "Thomsen", "Toth", "Vogel", "Wagner", "Walter", "Weber", "Werner", "Wolf", "Young", "Zimmermann", "Zeller"]

GIVEN_NAMES = ["Adam", "Agnes", "Alex", "Anna", "Ben", "Bruno", "Carla", "David", "Dora", "Elena", "Emil", "Eva", "Felix", "Frank", "Greta", "Hanna", "Igor", "Ines", "Jan", "Jana", "Jonas", "Julia", "Karl", "Katja", "Lars", "Lena", "Leo", "Lina", "Marco", "Maria", "Mark", "Mia", "Nils", "Nina", "Oskar", "Paula", "Paul", "Petra", "Piotr", "Rosa", "Sara", "Simon", "Sofia", "Tom", "Uma", "Vera", "Viktor", "Yann", "Zoe"]

CLUBS = ["Rook", "Knight", "Castle", "Tempo", "Gambit", "Fianchetto", "Zugzwang", "Ladder", "Hane", "Tesuji", "Atari", "Komi", "Joseki", "Sente", "Gote", "Seki"]

COUNTRIES = ["DE", "FR", "PL", "CZ", "HU", "NL", "IT", "ES", "GB", "SE", "DK", "AT", "RS", "RO",
             "FI", "SK", "UA", "BE", "CH", "NO"]
