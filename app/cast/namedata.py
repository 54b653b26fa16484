"""What the name finder knows of names, as data: titles and the gender they show, diminutives,
given names by gender, and capitalised words that are never a name.

Kept apart from names.py (the rules) so the tables can grow without the rules' module growing.
"""
from __future__ import annotations

#: Titles before a name, with the gender they show (None: either).
TITLES: dict[str, str | None] = {
    "Mr": "M", "Mister": "M", "Master": "M", "Sir": "M", "Lord": "M", "Monsieur": "M", "M": "M", "Herr": "M",
    "Signor": "M", "Don": "M", "Senor": "M", "Father": "M", "Brother": "M", "Uncle": "M", "King": "M",
    "Prince": "M", "Duke": "M", "Count": "M", "Baron": "M", "Earl": "M", "Mrs": "F", "Miss": "F", "Ms": "F",
    "Madam": "F", "Madame": "F", "Mme": "F", "Mlle": "F", "Mademoiselle": "F", "Lady": "F", "Dame": "F",
    "Frau": "F", "Fraulein": "F", "Signora": "F", "Signorina": "F", "Donna": "F", "Senora": "F",
    "Mother": "F", "Sister": "F", "Aunt": "F", "Queen": "F", "Princess": "F", "Duchess": "F",
    "Countess": "F", "Baroness": "F", "Mistress": "F", "Dr": None, "Doctor": None, "Professor": None,
    "Prof": None, "Captain": None, "Capt": None, "Colonel": None, "Col": None, "Major": None,
    "General": None, "Lieutenant": None, "Sergeant": None, "Inspector": None, "Rev": None,
    "Reverend": None, "Judge": None, "Cousin": None, "Nurse": None, "Saint": None, "St": None,
    "Admiral": None, "Commodore": None, "Commander": None, "Governor": None, "Bishop": "M", "Archdeacon": "M",
    "Canon": "M", "Dean": None, "Cardinal": "M", "Abbe": "M", "Squire": "M", "Marshal": None, "Sheriff": None,
    "Emperor": "M", "Empress": "F", "Messrs": "M", "Mesdames": "F", "Nawab": "M", "Begum": "F", "Mynheer": "M",
    "Constable": None, "Corporal": None, "Private": None, "Superintendent": None, "Lieut": None, "Sergt": None,
}
#: Titles written with a full stop in English ("Mr." but "Miss").
#: Titles said before a given name ("Lady Catherine", "Miss Lydia"); the rest go before a surname ("Colonel Fitzwilliam").
GIVEN_NAME_TITLES = {"Lady", "Sir", "Lord", "Miss", "Master", "Aunt", "Uncle", "Cousin", "Dame", "Prince", "Princess",
                      "King", "Queen", "Don", "Donna", "Sister", "Brother", "Mlle", "Mademoiselle"}
ABBREVIATED = {"Mr", "Mrs", "Ms", "Dr", "St", "Rev", "Prof", "Capt", "Col", "M", "Mme", "Mlle"}

#: Diminutive -> the given name it shortens (common English forms); "Lizzy" is "Elizabeth".
DIMINUTIVES: dict[str, tuple[str, ...]] = {
    "Elizabeth": ("Lizzy", "Lizzie", "Liz", "Eliza", "Beth", "Betsy", "Betty", "Bess", "Bessie", "Libby"),
    "Margaret": ("Meg", "Maggie", "Peggy", "Madge", "Margery"), "Catherine": ("Kitty", "Kate", "Katie", "Cathy", "Kit"),
    "Katherine": ("Kitty", "Kate", "Katie", "Kathy"), "Frances": ("Fanny",), "Mary": ("Polly", "Molly", "Mamie", "Mame"),
    "Sarah": ("Sally", "Sadie"), "Anne": ("Annie", "Nancy", "Nan"), "Ann": ("Annie", "Nancy", "Nan"),
    "Jane": ("Jenny", "Janey", "Jennie"), "Eleanor": ("Nell", "Nelly", "Nellie", "Ellie"), "Helen": ("Nell", "Nelly", "Nellie"),
    "Ellen": ("Nell", "Nelly", "Nellie"), "Susan": ("Sue", "Susy", "Susie"), "Charlotte": ("Lotty", "Lottie", "Charlie"),
    "Dorothy": ("Dolly", "Dot", "Dora"), "Harriet": ("Hatty", "Hattie"), "Louisa": ("Lou", "Louie", "Lulu"),
    "Matilda": ("Tilly", "Tilda"), "Rebecca": ("Becky",), "Henrietta": ("Hetty", "Etta"), "Caroline": ("Carrie", "Caro"),
    "Josephine": ("Josie", "Jo"), "Isabella": ("Bella", "Isa"), "Amelia": ("Emmy", "Milly"), "Emily": ("Emmy", "Em"),
    "John": ("Jack", "Johnny", "Jacky"), "William": ("Will", "Willy", "Willie", "Bill", "Billy"),
    "Robert": ("Bob", "Bobby", "Rob", "Robin", "Bert"), "Richard": ("Dick", "Rick", "Dicky"), "Henry": ("Harry", "Hal", "Hank"),
    "Thomas": ("Tom", "Tommy"), "Edward": ("Ned", "Ted", "Teddy", "Eddie", "Ed"), "James": ("Jim", "Jimmy", "Jem", "Jamie"),
    "Charles": ("Charley", "Charlie"), "Frederick": ("Fred", "Freddy", "Freddie"), "Samuel": ("Sam", "Sammy"),
    "Joseph": ("Joe", "Joey"), "Benjamin": ("Ben", "Benny"), "Nicholas": ("Nick", "Nicky"), "Francis": ("Frank", "Frankie"),
    "Anthony": ("Tony",), "Alexander": ("Alec", "Alick", "Sandy", "Alex"), "Albert": ("Bertie", "Bert"), "Philip": ("Phil",),
    "Michael": ("Mike", "Mick"), "Lawrence": ("Larry",), "Christopher": ("Kit", "Chris"), "Theodore": ("Teddy", "Theo"),
    "Gilbert": ("Gil",), "Walter": ("Wat", "Walt"), "Arthur": ("Art",), "Matthew": ("Matt",), "Daniel": ("Dan", "Danny"),
    "David": ("Davy", "Dave"), "Edmund": ("Ned", "Ted"), "Timothy": ("Tim",), "Patrick": ("Pat", "Paddy"),
}
SHORT_FOR = {short: full for full, shorts in DIMINUTIVES.items() for short in shorts}

#: Given names common in English-language fiction, by the gender they show; a tie-breaker where the
#: book's own titles and pronouns do not decide.
FEMALE_NAMES = frozenset("""Abigail Ada Adela Adelaide Agatha Agnes Alice Amanda Amelia Amy Angela Ann Anna Anne Annie
Arabella Augusta Barbara Beatrice Bella Bertha Betsy Betty Blanche Bridget Caroline Catherine Cecilia Cecily Charlotte
Clara Clarissa Constance Cora Cynthia Daisy Diana Dinah Dora Dorothea Dorothy Edith Eleanor Elinor Eliza Elizabeth Ella
Ellen Elsie Emily Emma Esther Ethel Eugenia Eve Evelyn Fanny Flora Florence Frances Georgiana Georgina Gertrude Grace
Hannah Harriet Helen Henrietta Hester Honoria Isabel Isabella Jane Janet Jemima Jenny Jessie Joan Josephine Judith Julia
Juliet Katherine Katharine Kathleen Kate Kitty Laura Letitia Lilian Lily Louisa Lucy Lydia Mabel Madeline Margaret Maria Marian Marianne
Martha Mary Matilda Maud Meg Mildred Minnie Miriam Molly Nancy Nell Nelly Nora Olive Olivia Pamela Patience Penelope
Phoebe Polly Priscilla Rachel Rebecca Rose Rosamond Ruth Sally Sarah Selina Sophia Sophie Susan Sybil Theresa Ursula
Victoria Violet Winifred Edna Adele Mariana Rosalind Leah Lizzy Lizzie Eliza Marilla Diana Ruby Josie Tillie Kitty
Daisy Margery Madge Carrie Hetty Bessie Jo Beth Amy Lotty Susie Sue Tilly Becky Jenny Effie Sibyl Helena Imogen""".split())
MALE_NAMES = frozenset("""Aaron Abraham Adam Albert Alexander Alfred Algernon Ambrose Andrew Anthony Archibald Arthur
Augustus Basil Benjamin Bertram Charles Christopher Clement Cyril Daniel David Dick Donald Douglas Edgar Edmund Edward
Edwin Ernest Eugene Felix Ferdinand Francis Frank Frederick George Gerald Gilbert Godfrey Gregory Guy Harold Harry Henry
Herbert Horace Hubert Hugh Humphrey Isaac Jack Jacob James Jasper Jeremy Jim Joe John Jonathan Joseph Joshua Julian
Lawrence Leonard Lewis Lionel Louis Luke Malcolm Mark Martin Matthew Maurice Michael Nathaniel Ned Nicholas Noah Oliver
Oscar Patrick Paul Percy Peter Philip Ralph Raymond Reginald Richard Robert Roger Ronald Rupert Samuel Sidney Simon
Stephen Thomas Timothy Tom Tony Valentine Victor Vincent Walter William Will Willoughby Fitzwilliam Cecil Freddy Ronny
Matthew Gilbert Davy Jem Bill Bob Fred Sam Teddy Ted Charley Charlie Harry Hal Dorian Ebenezer Edmond Gabriel Ivan
Alexis Sergei Pyotr Nikolai Hamilton Rodney Wilfred Sebastian Theodore Lucas Felix Mortimer Clarence""".split())

#: Capitalised words that are never a person's name on their own.
NOT_NAMES = frozenset("""I I'm I'll I've I'd O Oh Ah Ha Yes No Mr Mrs Miss Sir Madam Lord Lady God Heaven Heavens Christ Jesus
Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September
October November December Christmas Easter English French German Italian Spanish Russian American Indian Irish Scotch
Scottish British European Latin Greek Roman Chapter Volume Book Part The A An Mamma Mama Papa Pa Ma Dear He She It
His Her Hers Him Its They Them Their We Us Our You Your Yours Me My Mine This That These Those There Here Who What
Which When Where Why How Not Nor Or If Yet So""".split())
