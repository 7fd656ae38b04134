"""The references that dpdesk's text cites, in APA style (7th ed.), by key.

``cite(key)`` gives the in-text citation ("Boruch, 1971"); ``reference_list(keys)``
the list of the cited works, sorted by first author. Only what a text cites is listed.
"""

from __future__ import annotations

#: key -> (in-text citation, full APA reference)
REFERENCES: dict[str, tuple[str, str]] = {
    "warner1965": ("Warner, 1965",
                   "Warner, S. L. (1965). Randomized response: A survey technique for eliminating evasive answer "
                   "bias. <i>Journal of the American Statistical Association, 60</i>(309), 63–69."),
    "greenberg1969": ("Greenberg et al., 1969",
                      "Greenberg, B. G., Abul-Ela, A.-L. A., Simmons, W. R., & Horvitz, D. G. (1969). The unrelated "
                      "question randomized response model: Theoretical framework. <i>Journal of the American "
                      "Statistical Association, 64</i>(326), 520–539."),
    "boruch1971": ("Boruch, 1971",
                   "Boruch, R. F. (1971). Assuring confidentiality of responses in social research: A note on "
                   "strategies. <i>The American Sociologist, 6</i>(4), 308–311."),
    "yu2008": ("Yu, Tian & Tang, 2008",
               "Yu, J.-W., Tian, G.-L., & Tang, M.-L. (2008). Two new models for survey sampling with sensitive "
               "characteristic: Design and analysis. <i>Metrika, 67</i>(3), 251–263."),
    "moshagen2012": ("Moshagen et al., 2012",
                     "Moshagen, M., Musch, J., & Erdfelder, E. (2012). A stochastic lie detector. <i>Behavior "
                     "Research Methods, 44</i>(1), 222–231."),
    "clark1998": ("Clark & Desharnais, 1998",
                  "Clark, S. J., & Desharnais, R. A. (1998). Honest answers to embarrassing questions: Detecting "
                  "cheating in the randomized response model. <i>Psychological Methods, 3</i>(2), 160–168."),
    "feldman1998": ("Feldman & Cousins, 1998",
                    "Feldman, G. J., & Cousins, R. D. (1998). Unified approach to the classical statistical "
                    "analysis of small signals. <i>Physical Review D, 57</i>(7), 3873–3889."),
    "vandenhout2007": ("van den Hout, van der Heijden & Gilchrist, 2007",
                       "van den Hout, A., van der Heijden, P. G. M., & Gilchrist, R. (2007). The logistic regression "
                       "model with response variables subject to randomized response. <i>Computational Statistics "
                       "& Data Analysis, 51</i>(12), 6060–6069."),
    "magder1997": ("Magder & Hughes, 1997",
                   "Magder, L. S., & Hughes, J. P. (1997). Logistic regression when the outcome is measured with "
                   "uncertainty. <i>American Journal of Epidemiology, 146</i>(2), 195–203."),
    "dworkin2016": ("Dworkin, 2016",
                    "Dworkin, M. (2016). <i>Recommendation for block cipher modes of operation: Methods for "
                    "format-preserving encryption</i> (NIST Special Publication 800-38G). National Institute of "
                    "Standards and Technology. https://doi.org/10.6028/NIST.SP.800-38G"),
    "heck2018": ("Heck & Moshagen, 2018",
                 "Heck, D. W., & Moshagen, M. (2018). RRreg: An R package for correlation and regression analyses "
                 "of randomized response data. <i>Journal of Statistical Software, 85</i>(2), 1–29. "
                 "https://doi.org/10.18637/jss.v085.i02"),
    "vandenhout2006": ("van den Hout & Kooiman, 2006",
                       "van den Hout, A., & Kooiman, P. (2006). Estimating the linear regression model with "
                       "categorical covariates subject to randomized response. <i>Computational Statistics & Data "
                       "Analysis, 50</i>, 3311–3323."),
    "foxtracy1984": ("Fox & Tracy, 1984",
                     "Fox, J. A., & Tracy, P. E. (1984). Measuring associations with randomized response. <i>Social "
                     "Science Research, 13</i>, 188–197."),
    "bates2015": ("Bates et al., 2015",
                  "Bates, D., Mächler, M., Bolker, B., & Walker, S. (2015). Fitting linear mixed-effects models using "
                  "lme4. <i>Journal of Statistical Software, 67</i>(1), 1–48. https://doi.org/10.18637/jss.v067.i01"),
    "heck2018ecwm": ("Heck, Hoffmann & Moshagen, 2018",
                     "Heck, D. W., Hoffmann, A., & Moshagen, M. (2018). Detecting nonadherence without loss in "
                     "efficiency: A simple extension of the crosswise model. <i>Behavior Research Methods, "
                     "50</i>(5), 1895–1905."),
    "lumley2010": ("Lumley, 2010",
                   "Lumley, T. (2010). <i>Complex surveys: A guide to analysis using R</i>. Wiley."),
    "korn1990": ("Korn & Graubard, 1990",
                 "Korn, E. L., & Graubard, B. I. (1990). Simultaneous testing of regression coefficients with "
                 "complex survey data: Use of Bonferroni t statistics. <i>The American Statistician, 44</i>(4), "
                 "270–276."),
    "dwork2006": ("Dwork et al., 2006",
                  "Dwork, C., McSherry, F., Nissim, K., & Smith, A. (2006). Calibrating noise to sensitivity in "
                  "private data analysis. In <i>Theory of Cryptography (TCC 2006)</i> (pp. 265–284). Springer."),
    "canonne2020": ("Canonne, Kamath & Steinke, 2020",
                    "Canonne, C. L., Kamath, G., & Steinke, T. (2020). The discrete Gaussian for differential "
                    "privacy. In <i>Advances in Neural Information Processing Systems 33</i> (pp. 15676–15688)."),
    "mangat1994": ("Mangat, 1994",
                   "Mangat, N. S. (1994). An improved randomized response strategy. <i>Journal of the Royal "
                   "Statistical Society: Series B, 56</i>(1), 93–95."),
    "kuk1990": ("Kuk, 1990",
                "Kuk, A. Y. C. (1990). Asking sensitive questions indirectly. <i>Biometrika, 77</i>(2), 436–438."),
    "wang2017": ("Wang et al., 2017",
                 "Wang, T., Blocki, J., Li, N., & Jha, S. (2017). Locally differentially private protocols for "
                 "frequency estimation. In <i>26th USENIX Security Symposium</i> (pp. 729–745)."),
    "clopper1934": ("Clopper & Pearson, 1934",
                    "Clopper, C. J., & Pearson, E. S. (1934). The use of confidence or fiducial limits illustrated "
                    "in the case of the binomial. <i>Biometrika, 26</i>(4), 404–413."),
    "harkness2003": ("Harkness, 2003",
                     "Harkness, J. A. (2003). Questionnaire translation. In J. A. Harkness, F. J. R. van de Vijver, "
                     "& P. Ph. Mohler (Eds.), <i>Cross-cultural survey methods</i> (pp. 35–56). Wiley."),
    "efron1993": ("Efron & Tibshirani, 1993",
                  "Efron, B., & Tibshirani, R. J. (1993). <i>An introduction to the bootstrap</i>. Chapman & Hall."),
    "holm1979": ("Holm, 1979",
                 "Holm, S. (1979). A simple sequentially rejective multiple test procedure. <i>Scandinavian "
                 "Journal of Statistics, 6</i>(2), 65–70."),
    "newcombe1998": ("Newcombe, 1998",
                     "Newcombe, R. G. (1998). Interval estimation for the difference between independent "
                     "proportions: Comparison of eleven methods. <i>Statistics in Medicine, 17</i>(8), 873–890."),
    "mironov2017": ("Mironov, 2017",
                    "Mironov, I. (2017). Rényi differential privacy. In <i>2017 IEEE 30th Computer Security "
                    "Foundations Symposium</i> (pp. 263–275)."),
    "koskela2020": ("Koskela et al., 2020",
                    "Koskela, A., Jälkö, J., & Honkela, A. (2020). Computing tight differential privacy guarantees "
                    "using FFT. In <i>Proceedings of AISTATS 2020</i> (pp. 2560–2569)."),
    "binder1983": ("Binder, 1983",
                   "Binder, D. A. (1983). On the variances of asymptotically normal estimators from complex "
                   "surveys. <i>International Statistical Review, 51</i>(3), 279–292."),
    "lumley2004": ("Lumley, 2004",
                   "Lumley, T. (2004). Analysis of complex survey samples. <i>Journal of Statistical Software, "
                   "9</i>(8), 1–19."),
    "korn1998": ("Korn & Graubard, 1998",
                 "Korn, E. L., & Graubard, B. I. (1998). Confidence intervals for proportions with small expected "
                 "number of positive counts estimated from survey data. <i>Survey Methodology, 24</i>(2), 193–201."),
    "satterthwaite1946": ("Satterthwaite, 1946",
                          "Satterthwaite, F. E. (1946). An approximate distribution of estimates of variance "
                          "components. <i>Biometrics Bulletin, 2</i>(6), 110–114."),
    "cobo2021": ("Cobo, Rueda & Arcos, 2021",
                 "Cobo, B., Rueda, M. M., & Arcos, A. (2021). <i>RRTCS: Randomized response techniques for complex "
                 "surveys</i> (R package version 0.0.4). https://CRAN.R-project.org/package=RRTCS"),
}

#: Interval method -> the references its text cites.
CI_KEYS = {"default": ("feldman1998", "clopper1934"), "wald": ("heck2018",), "bootstrap": ("efron1993",)}


def cite(*keys: str) -> str:
    """``Boruch, 1971`` or ``Feldman & Cousins, 1998; Clopper & Pearson, 1934``."""
    return "; ".join(REFERENCES[k][0] for k in keys if k in REFERENCES)


def reference_list(keys) -> list[str]:
    """The full references of ``keys`` (each once), sorted as APA sorts them (by first author)."""
    seen = [k for k in dict.fromkeys(keys) if k in REFERENCES]
    return sorted((REFERENCES[k][1] for k in seen), key=lambda text: text.lower())
