/**
 * Builds `fixtures/demo/**`, the offline data set of the fixtures upstream
 * (`TUBESCRIBE_UPSTREAM=fixtures:fixtures/demo`), from the real YouTube responses in
 * `../shared/youtube-recordings`, read through tubescribe's own YouTube parsers:
 *
 *   TUBESCRIBE_RECORDINGS=../shared/youtube-recordings node --import tsx scripts/make-demo-fixtures.ts
 *
 * The recordings are not copied: only the parsers' normalised output is written (the layout of
 * `src/drivers/node/fixtures-upstream.ts`), with a stable key order and at most 3 sizes per thumbnail
 * list. No recording holds real timed text, so the caption documents of rCAS2eD-mcw are json3
 * built here from the hand-written, illustrative text in {@link EN_TEXT}. The output is
 * formatted with Biome so that `biome check` passes; `fixtures/demo/README.md` (hand-written)
 * says where each piece comes from.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { at, findFirst, text as textOf } from '../src/drivers/youtube/json.ts';
import { parseChannel } from '../src/drivers/youtube/parse-channel.ts';
import { parseChannelPlaylists, parseChannelVideos } from '../src/drivers/youtube/parse-channel-tab.ts';
import { parseCommentPage } from '../src/drivers/youtube/parse-comments.ts';
import { mergeVideoExtras, parseMicroformat } from '../src/drivers/youtube/parse-microformat.ts';
import { parseNext } from '../src/drivers/youtube/parse-next.ts';
import { parsePlayer } from '../src/drivers/youtube/parse-player.ts';
import { parsePlaylist } from '../src/drivers/youtube/parse-playlist.ts';
import { parseResolveUrl } from '../src/drivers/youtube/parse-resolve.ts';
import { child, parseChannelFeed, parseXml } from '../src/drivers/youtube/parse-rss.ts';
import { parseSearch } from '../src/drivers/youtube/parse-search.ts';
import { parseSuggestions } from '../src/drivers/youtube/parse-suggestions.ts';
import { ApiError } from '../src/errors.ts';
import type {
  ChannelProfile,
  Comment,
  Json3Event,
  Json3Seg,
  PlayerData,
  PlaylistCard,
  PlaylistPage,
  SearchPage,
  TimedText,
  VideoCard,
  VideoExtras,
} from '../src/ports/upstream.ts';
import { loadRecording, recordedFile, recordedJson, recordingsDir } from '../test/youtube/recordings.ts';

// ---------------------------------------------------------------------------------------------
// The hand-written captions of rCAS2eD-mcw ("Laryngeal Mask Airway (LMA) insertion | ESSENTIAL
// TECHNIQUES for standard patients", 5:43, chapters at 0:39, 1:55, 4:02 and 4:28). Illustrative
// teaching text written for this demo, not the video's real captions: [start s, end s, text].
// ---------------------------------------------------------------------------------------------

/** The English manual track, one caption a line: `start end text` (seconds; ` / ` = line break). */
const EN_TEXT = `
0.6 4.2 Hi everyone, and welcome back to ABCs of Anaesthesia.
4.2 8.9 Today we're looking at laryngeal mask airway insertion, / the essential techniques for standard patients.
8.9 13.5 This is a focused summary of the critical steps / and a few high-yield troubleshooting methods.
13.5 18.4 First, the overall strategy: the LMA is a supraglottic airway.
18.4 23.6 It sits above the vocal cords and seals around the laryngeal inlet.
23.6 28.7 We'll use the classic LMA today, but the principles apply / to the second-generation devices too.
28.7 33.9 Think of it as one of the three lifelines of the Vortex approach:
33.9 38.8 face mask, supraglottic airway and endotracheal tube.
39.2 44.5 Before we insert anything, we need a method of oxygenation.
44.5 49.8 Pre-oxygenate with a tight-fitting face mask / for at least three minutes.
49.8 55.0 Aim for an end-tidal oxygen above ninety percent.
55.0 60.6 After induction, confirm that you can ventilate / with the bag and mask.
60.6 66.1 Use a two-handed grip if you need to, / with an oropharyngeal airway.
66.1 71.8 Watch the chest rise and the capnography trace.
71.8 77.4 Make sure the patient is deep enough before insertion.
77.4 83.0 Too light, and you'll see coughing, gagging or laryngospasm.
83.0 88.9 Propofol is ideal here because it obtunds the airway reflexes.
88.9 94.6 A jaw thrust with no response is a good sign / that you're ready to proceed.
94.6 100.3 Now let's look at the anatomy on this model.
100.3 106.2 Here is the tongue, the epiglottis, and the laryngeal inlet.
106.2 114.6 The tip of the LMA should end up in the upper oesophageal sphincter, / behind the cricoid.
115.4 121.0 Let's move on to insertion. First, choose the right size.
121.0 127.2 Size 3 for small adults, size 4 for most women, / and size 5 for most men.
127.2 132.9 Fully deflate the cuff so that it forms a smooth, flat wedge.
132.9 138.4 Lubricate the back of the cuff only, not the front.
138.4 144.3 Position the head in the sniffing position, / with the neck flexed and the head extended.
144.3 150.1 Hold the LMA like a pen, with your index finger / at the junction of the cuff and the tube.
150.1 156.0 Open the mouth and press the tip up against the hard palate.
156.0 162.2 Keep that pressure as you slide it back, / following the curve of the palate.
162.2 168.3 Use your finger to push it down into the hypopharynx.
168.3 174.0 Advance until you feel a definite resistance.
174.0 180.1 Hold the tube with your other hand / before you remove your finger.
180.1 186.4 Now inflate the cuff with air, without holding the tube.
186.4 192.2 You'll often see the tube rise slightly / as the cuff seats itself.
192.2 198.3 Don't exceed the maximum cuff volume printed on the tube.
198.3 204.6 Better still, use a manometer and keep the cuff pressure / below sixty centimetres of water.
204.6 210.5 The black line on the tube should face the upper lip.
210.5 216.8 Insert a bite block, and then secure the tube with tape.
216.8 223.0 Let's see that once more in real time.
223.0 229.4 Tip on the palate, slide back, down into the hypopharynx,
229.4 235.2 resistance, hold the tube, and inflate.
235.2 241.5 That whole sequence should take less than thirty seconds.
242.3 247.6 Next, we assess ventilation.
247.6 253.0 Look for a square capnography waveform and good chest rise.
253.0 258.4 Listen for an audible leak at the mouth / during gentle hand ventilation.
258.4 263.7 A leak pressure above twenty centimetres of water is reassuring.
263.7 267.8 Then connect the circuit and allow spontaneous breathing.
268.2 273.6 Finally, troubleshooting. What if it isn't working?
273.6 279.5 First, check the depth of anaesthesia; / laryngospasm is common in light patients.
279.5 285.3 Give more propofol and apply a jaw thrust.
285.3 291.4 Second, check the position: is the tube too far out?
291.4 297.6 If the epiglottis has folded down, try the up-down manoeuvre.
297.6 303.2 Withdraw the LMA a few centimetres and re-advance it.
303.2 309.1 Third, check the cuff; too much air can make the leak worse.
309.1 315.3 If it still doesn't seal, try one size larger.
315.3 321.4 Limit yourself to three attempts with any device.
321.4 327.6 After that, move to another lifeline of the Vortex / and call for help early.
327.6 333.8 If you can't oxygenate by any lifeline, / prepare for front-of-neck access.
333.8 339.2 Thanks for watching, and check out our extended LMA video.
339.2 342.8 See you next time.
`;

/** Full translations, caption by caption with {@link EN_TEXT} (same timings; ` / ` = line break). */
const TRANSLATIONS: Readonly<Record<'fr' | 'de' | 'es', string>> = {
  fr: `
Bonjour à tous, et bienvenue sur ABCs of Anaesthesia.
Aujourd'hui, nous voyons la pose du masque laryngé, / les techniques essentielles pour les patients standard.
Voici un résumé ciblé des étapes critiques / et de quelques méthodes de dépannage très utiles.
D'abord, la stratégie globale : le masque laryngé est un dispositif supraglottique.
Il se place au-dessus des cordes vocales et forme un joint autour de l'orifice laryngé.
Nous utilisons aujourd'hui le masque laryngé classique, mais les principes / s'appliquent aussi aux dispositifs de deuxième génération.
Voyez-le comme l'une des trois bouées de l'approche Vortex :
le masque facial, le dispositif supraglottique et la sonde d'intubation.
Avant d'insérer quoi que ce soit, il faut une méthode d'oxygénation.
Préoxygénez avec un masque facial bien ajusté / pendant au moins trois minutes.
Visez une fraction expirée d'oxygène supérieure à quatre-vingt-dix pour cent.
Après l'induction, vérifiez que vous pouvez ventiler / au ballon et au masque.
Utilisez une prise à deux mains si nécessaire, / avec une canule oropharyngée.
Observez le soulèvement du thorax et la courbe de capnographie.
Assurez-vous que le patient est assez profond avant l'insertion.
Trop léger, et vous verrez de la toux, des haut-le-cœur ou un laryngospasme.
Le propofol est idéal ici, car il atténue les réflexes des voies aériennes.
Une subluxation de la mâchoire sans réaction est un bon signe / que vous pouvez continuer.
Regardons maintenant l'anatomie sur ce modèle.
Voici la langue, l'épiglotte et l'orifice laryngé.
L'extrémité du masque doit se placer dans le sphincter supérieur de l'œsophage, / derrière le cricoïde.
Passons à l'insertion. D'abord, choisissez la bonne taille.
Taille 3 pour les petits adultes, taille 4 pour la plupart des femmes, / et taille 5 pour la plupart des hommes.
Dégonflez complètement le ballonnet pour qu'il forme un coin lisse et plat.
Lubrifiez uniquement la face postérieure du ballonnet, pas la face antérieure.
Placez la tête en position de reniflement, / cou fléchi et tête en extension.
Tenez le masque comme un stylo, l'index / à la jonction du ballonnet et du tube.
Ouvrez la bouche et appuyez l'extrémité contre le palais dur.
Maintenez cette pression en le faisant glisser vers l'arrière, / en suivant la courbe du palais.
Avec le doigt, poussez-le vers le bas dans l'hypopharynx.
Avancez jusqu'à sentir une résistance nette.
Tenez le tube de l'autre main / avant de retirer votre doigt.
Gonflez maintenant le ballonnet avec de l'air, sans tenir le tube.
Le tube remonte souvent légèrement / quand le ballonnet se met en place.
Ne dépassez pas le volume maximal du ballonnet inscrit sur le tube.
Mieux encore, utilisez un manomètre et gardez la pression du ballonnet / sous soixante centimètres d'eau.
La ligne noire du tube doit être tournée vers la lèvre supérieure.
Mettez en place un cale-dents, puis fixez le tube avec du ruban adhésif.
Revoyons cela une fois en temps réel.
L'extrémité sur le palais, on glisse vers l'arrière, on descend dans l'hypopharynx,
la résistance, on tient le tube, et on gonfle.
Toute cette séquence devrait prendre moins de trente secondes.
Ensuite, nous évaluons la ventilation.
Recherchez une courbe de capnographie carrée et un bon soulèvement du thorax.
Écoutez s'il y a une fuite audible à la bouche / pendant une ventilation manuelle douce.
Une pression de fuite supérieure à vingt centimètres d'eau est rassurante.
Branchez ensuite le circuit et laissez le patient respirer spontanément.
Enfin, le dépannage. Et si cela ne fonctionne pas ?
D'abord, vérifiez la profondeur de l'anesthésie ; / le laryngospasme est fréquent chez les patients trop légers.
Donnez plus de propofol et faites une subluxation de la mâchoire.
Ensuite, vérifiez la position : le tube est-il trop ressorti ?
Si l'épiglotte s'est repliée, essayez la manœuvre de haut en bas.
Retirez le masque de quelques centimètres et réavancez-le.
Troisièmement, vérifiez le ballonnet ; trop d'air peut aggraver la fuite.
Si l'étanchéité reste insuffisante, essayez une taille au-dessus.
Limitez-vous à trois tentatives avec chaque dispositif.
Ensuite, passez à une autre bouée du Vortex / et appelez à l'aide tôt.
Si vous ne pouvez oxygéner par aucune bouée, / préparez un abord chirurgical du cou.
Merci d'avoir regardé, et découvrez notre vidéo détaillée sur le masque laryngé.
À la prochaine !
`,
  de: `
Hallo zusammen und willkommen zurück bei ABCs of Anaesthesia.
Heute geht es um das Einführen der Larynxmaske, / die wichtigsten Techniken bei Standardpatienten.
Dies ist eine kompakte Zusammenfassung der entscheidenden Schritte / und einiger besonders nützlicher Lösungsstrategien.
Zuerst die Gesamtstrategie: Die Larynxmaske ist ein supraglottischer Atemweg.
Sie liegt oberhalb der Stimmbänder und dichtet um den Kehlkopfeingang ab.
Wir verwenden heute die klassische Larynxmaske, aber die Prinzipien / gelten auch für Geräte der zweiten Generation.
Betrachten Sie sie als eine der drei Rettungsleinen des Vortex-Ansatzes:
Gesichtsmaske, supraglottischer Atemweg und Endotrachealtubus.
Bevor wir etwas einführen, brauchen wir eine Methode der Oxygenierung.
Präoxygenieren Sie mit einer dicht sitzenden Gesichtsmaske / für mindestens drei Minuten.
Ziel ist eine endtidale Sauerstoffkonzentration über neunzig Prozent.
Prüfen Sie nach der Einleitung, ob Sie / mit Beutel und Maske beatmen können.
Nutzen Sie bei Bedarf den Zwei-Hand-Griff / und einen Guedel-Tubus.
Achten Sie auf die Thoraxbewegung und die Kapnographiekurve.
Stellen Sie vor dem Einführen sicher, dass die Narkose tief genug ist.
Ist sie zu flach, sehen Sie Husten, Würgen oder einen Laryngospasmus.
Propofol ist hier ideal, weil es die Atemwegsreflexe dämpft.
Ein Esmarch-Handgriff ohne Reaktion ist ein gutes Zeichen, / dass Sie fortfahren können.
Sehen wir uns jetzt die Anatomie an diesem Modell an.
Hier sind die Zunge, die Epiglottis und der Kehlkopfeingang.
Die Spitze der Larynxmaske sollte im oberen Ösophagussphinkter liegen, / hinter dem Ringknorpel.
Kommen wir zum Einführen. Wählen Sie zuerst die richtige Größe.
Größe 3 für kleine Erwachsene, Größe 4 für die meisten Frauen / und Größe 5 für die meisten Männer.
Entblocken Sie den Cuff vollständig, sodass er einen glatten, flachen Keil bildet.
Gleitmittel nur auf die Rückseite des Cuffs, nicht auf die Vorderseite.
Lagern Sie den Kopf in Schnüffelposition, / mit gebeugtem Nacken und überstrecktem Kopf.
Halten Sie die Larynxmaske wie einen Stift, den Zeigefinger / am Übergang von Cuff und Tubus.
Öffnen Sie den Mund und drücken Sie die Spitze gegen den harten Gaumen.
Halten Sie diesen Druck, während Sie sie nach hinten schieben, / entlang der Gaumenkrümmung.
Schieben Sie sie mit dem Finger hinunter in den Hypopharynx.
Führen Sie sie vor, bis Sie einen deutlichen Widerstand spüren.
Halten Sie den Tubus mit der anderen Hand, / bevor Sie den Finger herausziehen.
Blocken Sie jetzt den Cuff mit Luft, ohne den Tubus festzuhalten.
Oft hebt sich der Tubus dabei leicht, / wenn sich der Cuff positioniert.
Überschreiten Sie nicht das maximale Cuffvolumen, das auf dem Tubus steht.
Noch besser: Verwenden Sie einen Cuffdruckmesser und halten Sie den Druck / unter sechzig Zentimeter Wassersäule.
Die schwarze Linie auf dem Tubus sollte zur Oberlippe zeigen.
Legen Sie einen Beißschutz ein und fixieren Sie den Tubus mit Pflaster.
Sehen wir uns das noch einmal in Echtzeit an.
Spitze an den Gaumen, nach hinten gleiten, hinunter in den Hypopharynx,
Widerstand, Tubus halten und blocken.
Die ganze Abfolge sollte weniger als dreißig Sekunden dauern.
Als Nächstes beurteilen wir die Beatmung.
Achten Sie auf eine rechteckige Kapnographiekurve und gute Thoraxhebung.
Hören Sie bei sanfter Handbeatmung / auf ein hörbares Leck am Mund.
Ein Leckdruck über zwanzig Zentimeter Wassersäule ist beruhigend.
Schließen Sie dann das System an und lassen Sie den Patienten spontan atmen.
Zum Schluss die Fehlersuche. Was, wenn es nicht funktioniert?
Prüfen Sie zuerst die Narkosetiefe; / bei zu flacher Narkose ist ein Laryngospasmus häufig.
Geben Sie mehr Propofol und wenden Sie den Esmarch-Handgriff an.
Prüfen Sie als Zweites die Lage: Ist der Tubus zu weit herausgerutscht?
Wenn die Epiglottis umgeklappt ist, versuchen Sie das Auf-und-ab-Manöver.
Ziehen Sie die Larynxmaske einige Zentimeter zurück und schieben Sie sie wieder vor.
Drittens prüfen Sie den Cuff; zu viel Luft kann das Leck verschlimmern.
Dichtet sie immer noch nicht ab, nehmen Sie eine Größe größer.
Beschränken Sie sich auf drei Versuche pro Hilfsmittel.
Wechseln Sie danach zu einer anderen Rettungsleine des Vortex / und holen Sie früh Hilfe.
Wenn keine Rettungsleine eine Oxygenierung ermöglicht, / bereiten Sie einen chirurgischen Atemwegszugang vor.
Danke fürs Zuschauen, und schauen Sie sich unser ausführliches Video zur Larynxmaske an.
Bis zum nächsten Mal!
`,
  es: `
Hola a todos y bienvenidos de nuevo a ABCs of Anaesthesia.
Hoy veremos la inserción de la mascarilla laríngea, / las técnicas esenciales para pacientes estándar.
Es un resumen centrado en los pasos críticos / y en algunos métodos muy útiles para resolver problemas.
Primero, la estrategia general: la mascarilla laríngea es un dispositivo supraglótico.
Se coloca por encima de las cuerdas vocales y sella alrededor de la entrada laríngea.
Hoy usaremos la mascarilla laríngea clásica, pero los principios / también se aplican a los dispositivos de segunda generación.
Piense en ella como uno de los tres salvavidas del enfoque Vortex:
la mascarilla facial, el dispositivo supraglótico y el tubo endotraqueal.
Antes de insertar nada, necesitamos un método de oxigenación.
Preoxigene con una mascarilla facial bien ajustada / durante al menos tres minutos.
El objetivo es un oxígeno espirado por encima del noventa por ciento.
Tras la inducción, confirme que puede ventilar / con bolsa y mascarilla.
Use un agarre a dos manos si lo necesita, / con una cánula orofaríngea.
Observe la expansión del tórax y la curva de capnografía.
Asegúrese de que el paciente esté lo bastante profundo antes de la inserción.
Si está demasiado superficial, verá tos, náuseas o laringoespasmo.
El propofol es ideal aquí porque atenúa los reflejos de la vía aérea.
Una tracción mandibular sin respuesta es una buena señal / de que puede continuar.
Veamos ahora la anatomía en este modelo.
Aquí están la lengua, la epiglotis y la entrada laríngea.
La punta de la mascarilla debe quedar en el esfínter esofágico superior, / detrás del cricoides.
Pasemos a la inserción. Primero, elija el tamaño adecuado.
Tamaño 3 para adultos pequeños, tamaño 4 para la mayoría de las mujeres / y tamaño 5 para la mayoría de los hombres.
Desinfle completamente el manguito para que forme una cuña lisa y plana.
Lubrique solo la parte posterior del manguito, no la anterior.
Coloque la cabeza en posición de olfateo, / con el cuello flexionado y la cabeza extendida.
Sujete la mascarilla como un bolígrafo, con el dedo índice / en la unión entre el manguito y el tubo.
Abra la boca y presione la punta contra el paladar duro.
Mantenga esa presión mientras la desliza hacia atrás, / siguiendo la curva del paladar.
Con el dedo, empújela hacia abajo hasta la hipofaringe.
Avance hasta notar una resistencia clara.
Sujete el tubo con la otra mano / antes de retirar el dedo.
Ahora infle el manguito con aire, sin sujetar el tubo.
A menudo verá que el tubo sube un poco / al asentarse el manguito.
No supere el volumen máximo del manguito impreso en el tubo.
Mejor aún, use un manómetro y mantenga la presión del manguito / por debajo de sesenta centímetros de agua.
La línea negra del tubo debe quedar hacia el labio superior.
Coloque un bloqueador de mordida y fije el tubo con cinta.
Veámoslo una vez más en tiempo real.
La punta en el paladar, deslizar hacia atrás, bajar a la hipofaringe,
resistencia, sujetar el tubo e inflar.
Toda la secuencia debería durar menos de treinta segundos.
A continuación, evaluamos la ventilación.
Busque una curva de capnografía cuadrada y una buena expansión del tórax.
Escuche si hay una fuga audible por la boca / durante una ventilación manual suave.
Una presión de fuga superior a veinte centímetros de agua es tranquilizadora.
Después conecte el circuito y permita la respiración espontánea.
Por último, la resolución de problemas. ¿Y si no funciona?
Primero, compruebe la profundidad anestésica; / el laringoespasmo es frecuente en pacientes superficiales.
Administre más propofol y aplique tracción mandibular.
Segundo, compruebe la posición: ¿está el tubo demasiado fuera?
Si la epiglotis se ha plegado, pruebe la maniobra de arriba abajo.
Retire la mascarilla unos centímetros y vuelva a avanzarla.
Tercero, revise el manguito; demasiado aire puede empeorar la fuga.
Si sigue sin sellar, pruebe un tamaño más grande.
Limítese a tres intentos con cada dispositivo.
Después, pase a otro salvavidas del Vortex / y pida ayuda pronto.
Si no puede oxigenar con ningún salvavidas, / prepárese para un acceso quirúrgico cervical.
Gracias por vernos, y no se pierda nuestro vídeo ampliado sobre la mascarilla laríngea.
¡Hasta la próxima!
`,
};

/** The other manual tracks: the opening four captions only (same timings as the first four). */
const SHORT_TRANSLATIONS: Readonly<Record<string, string>> = {
  ar: `
مرحبًا بالجميع، وأهلًا بكم مجددًا في ABCs of Anaesthesia.
نتناول اليوم إدخال قناع الحنجرة، / والتقنيات الأساسية للمرضى العاديين.
هذا ملخص مركّز للخطوات الحاسمة / ولبعض طرق حل المشكلات المفيدة.
أولًا، الاستراتيجية العامة: قناع الحنجرة جهاز لمجرى الهواء فوق المزمار.
`,
  fil: `
Kumusta kayong lahat, at maligayang pagbabalik sa ABCs of Anaesthesia.
Ngayon, pag-uusapan natin ang paglalagay ng laryngeal mask airway, / ang mahahalagang teknik para sa karaniwang pasyente.
Ito ay maikling buod ng mahahalagang hakbang / at ilang kapaki-pakinabang na paraan ng pag-aayos ng problema.
Una, ang pangkalahatang estratehiya: ang LMA ay isang supraglottic airway.
`,
  hi: `
सभी को नमस्कार, ABCs of Anaesthesia में आपका फिर से स्वागत है।
आज हम लैरिंजियल मास्क एयरवे लगाने की आवश्यक तकनीकें देखेंगे, / सामान्य मरीज़ों के लिए।
यह ज़रूरी चरणों और समस्याएँ सुलझाने के / कुछ उपयोगी तरीकों का संक्षिप्त सार है।
पहले, समग्र रणनीति: LMA एक सुप्राग्लॉटिक एयरवे है।
`,
  pt: `
Olá a todos, e bem-vindos de volta ao ABCs of Anaesthesia.
Hoje vamos ver a inserção da máscara laríngea, / as técnicas essenciais para pacientes padrão.
Este é um resumo focado nos passos críticos / e em alguns métodos úteis de resolução de problemas.
Primeiro, a estratégia geral: a máscara laríngea é um dispositivo supraglótico.
`,
  si: `
සැමට ආයුබෝවන්, ABCs of Anaesthesia වෙත නැවතත් සාදරයෙන් පිළිගනිමු.
අද අපි ස්වරාලය ආවරණ ශ්වසන මාර්ගය ඇතුළු කිරීමේ / මූලික ශිල්පීය ක්‍රම බලමු.
මෙය වැදගත් පියවරවල / කෙටි සාරාංශයකි.
පළමුව, සමස්ත උපාය මාර්ගය: LMA යනු සුප්‍රාග්ලොටික් ශ්වසන මාර්ගයකි.
`,
  ta: `
அனைவருக்கும் வணக்கம், ABCs of Anaesthesia-க்கு மீண்டும் வரவேற்கிறோம்.
இன்று குரல்வளை முகமூடி காற்றுப்பாதையைப் பொருத்தும் / அடிப்படை நுட்பங்களைப் பார்க்கலாம்.
இது முக்கியமான படிகளின் / சுருக்கமான தொகுப்பு.
முதலில், ஒட்டுமொத்த உத்தி: LMA ஒரு சுப்ராகுளோட்டிக் காற்றுப்பாதை.
`,
  ur: `
سب کو سلام، اور ABCs of Anaesthesia میں دوبارہ خوش آمدید۔
آج ہم لیرنجیل ماسک ایئر وے لگانے کی بنیادی تکنیکیں دیکھیں گے، / عام مریضوں کے لیے۔
یہ اہم مراحل اور مسائل حل کرنے کے / چند مفید طریقوں کا مختصر خلاصہ ہے۔
پہلے، مجموعی حکمت عملی: LMA ایک سپرا گلوٹک ایئر وے ہے۔
`,
  vi: `
Xin chào mọi người, chào mừng các bạn quay lại với ABCs of Anaesthesia.
Hôm nay chúng ta tìm hiểu cách đặt mặt nạ thanh quản, / các kỹ thuật cơ bản cho bệnh nhân thông thường.
Đây là bản tóm tắt các bước quan trọng / và một số cách xử lý sự cố hữu ích.
Trước hết là chiến lược chung: mặt nạ thanh quản là một dụng cụ đường thở trên thanh môn.
`,
};

/** A caption: start and end in seconds, text with `\n` line breaks. */
type Caption = readonly [start: number, end: number, text: string];

/** The captions of a block of text lines (` / ` = line break). */
function textLines(block: string): string[] {
  return block
    .trim()
    .split('\n')
    .map((line) => line.trim().replaceAll(' / ', '\n'));
}

/** The English captions of {@link EN_TEXT}. */
const TRANSCRIPT: readonly Caption[] = textLines(EN_TEXT).map((line) => {
  const m = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (.+)$/s.exec(line);
  if (!m) throw new Error(`bad caption line: ${line}`);
  return [Number(m[1]), Number(m[2]), m[3] ?? ''];
});

/** Translated captions on the English timings (the first `lines.length` of them). */
function translated(block: string): Caption[] {
  const lines = textLines(block);
  if (lines.length > TRANSCRIPT.length) throw new Error('more translated captions than English ones');
  return lines.map((text, i) => [TRANSCRIPT[i]?.[0] ?? 0, TRANSCRIPT[i]?.[1] ?? 0, text]);
}

// ---------------------------------------------------------------------------------------------
// json3 documents (youtube-protocol.md §2.4)
// ---------------------------------------------------------------------------------------------

const ms = (seconds: number): number => Math.round(seconds * 1000);

/** Most words on one ASR line. */
const ASR_LINE_WORDS = 12;

/** A manual track: one seg per event, the text as written (with its `\n`). */
function manualJson3(lines: readonly Caption[]): TimedText {
  const events: Json3Event[] = lines.map(([start, end, text]) => ({
    tStartMs: ms(start),
    dDurationMs: ms(end) - ms(start),
    segs: [{ utf8: text }],
  }));
  return { format: 'json3', document: { events } };
}

/** ASR words of a caption: lower case, no punctuation but in-word apostrophes and hyphens. */
function asrWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\- ]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[-']+|[-']+$/g, ''))
    .filter((w) => w !== '');
}

/**
 * The English ASR track: a window event, then lines of at most {@link ASR_LINE_WORDS} words, one per seg
 * (`tOffsetMs` from the line start; words spread over the caption's time by their length), each
 * line shown until the next-but-one starts, and an `aAppend` newline event just before each
 * following line, as YouTube's ASR json3 has them.
 */
function asrJson3(lines: readonly Caption[], lengthSeconds: number): TimedText {
  const chunks: { at: number; word: string }[][] = [];
  for (const [start, end, text] of lines) {
    const words = asrWords(text);
    const weights = words.map((w) => w.length + 2);
    const total = weights.reduce((a, b) => a + b, 0);
    const span = ms(end) - ms(start) - 250;
    let before = 0;
    const timed = words.map((word, i) => {
      const at = ms(start) + Math.round((span * before) / total);
      before += weights[i] ?? 0;
      return { at, word };
    });
    const size = Math.ceil(timed.length / Math.ceil(timed.length / ASR_LINE_WORDS));
    for (let i = 0; i < timed.length; i += size) chunks.push(timed.slice(i, i + size));
  }
  const videoEnd = lengthSeconds * 1000;
  const events: Json3Event[] = [
    { tStartMs: 0, dDurationMs: videoEnd, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
  ];
  chunks.forEach((chunk, i) => {
    const start = chunk[0]?.at ?? 0;
    const end = chunks[i + 2]?.[0]?.at ?? Math.min(videoEnd, (chunk.at(-1)?.at ?? start) + 1500);
    const segs: Json3Seg[] = chunk.map(({ at, word }, k) =>
      k === 0 ? { utf8: word, acAsrConf: 0 } : { utf8: ` ${word}`, tOffsetMs: at - start, acAsrConf: 0 },
    );
    events.push({ tStartMs: start, dDurationMs: end - start, wWinId: 1, segs });
    const next = chunks[i + 1]?.[0]?.at;
    if (next !== undefined && next - 10 < end) {
      events.push({
        tStartMs: next - 10,
        dDurationMs: end - (next - 10),
        wWinId: 1,
        aAppend: 1,
        segs: [{ utf8: '\n' }],
      });
    }
  });
  return { format: 'json3', document: { events } };
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'fixtures', 'demo');
const GENERATED = ['videos', 'captions', 'channels', 'playlists', 'search', 'suggestions'];
const written: string[] = [];

/** Keys written first, in this order; the others follow alphabetically. */
const KEY_ORDER = [
  'format',
  'document',
  'error',
  'player',
  'extras',
  'profile',
  'pages',
  'code',
  'message',
  'videoId',
  'playlistId',
  'id',
  'type',
  'languageCode',
  'name',
  'kind',
  'title',
  'author',
  'channelTitle',
  'channelId',
  'handle',
  'index',
  'url',
  'width',
  'height',
];
const THUMBNAIL_LISTS = new Set(['thumbnails', 'avatars', 'banners']);
/** Thumbnail sizes kept per item of a list. */
const CARD_THUMBNAILS = 1;

/** Lists of items (channel tabs, playlist videos) keep fewer thumbnail sizes than single entities. */
const CARD_LISTS = new Set(['items', 'videos', 'latest']);

/** At most `max` sizes of a thumbnail list: the largest, then the smallest, then the middle one. */
function trimThumbnails(list: { width: number }[], max: number): unknown[] {
  if (list.length <= max) return list;
  const sorted = [...list].sort((a, b) => a.width - b.width);
  const picks = [sorted.length - 1, 0, Math.floor((sorted.length - 1) / 2)]
    .slice(0, max)
    .sort((a, b) => a - b);
  return picks.map((i) => sorted[i]);
}

/**
 * `value` with object keys in a stable order ({@link KEY_ORDER}, then alphabetical) and thumbnail
 * lists trimmed: 3 sizes for a video, channel or playlist, {@link CARD_THUMBNAILS} for the items
 * of a list.
 */
function normalise(value: unknown, key = '', inList = false): unknown {
  if (Array.isArray(value)) {
    if (THUMBNAIL_LISTS.has(key))
      return trimThumbnails(value as { width: number }[], inList ? CARD_THUMBNAILS : 3);
    return value.map((v) => normalise(v, '', inList || CARD_LISTS.has(key)));
  }
  if (value === null || typeof value !== 'object') return value;
  const rank = (k: string) => {
    const i = KEY_ORDER.indexOf(k);
    return i < 0 ? KEY_ORDER.length : i;
  };
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    keys.filter((k) => record[k] !== undefined).map((k) => [k, normalise(record[k], k, inList)]),
  );
}

/** Writes `fixtures/demo/<folder>/<encoded name>.json`. */
function write(folder: string, name: string, value: unknown, reorder = true): void {
  const file = join(OUT, folder, `${encodeURIComponent(name)}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(reorder ? normalise(value) : value)}\n`);
  written.push(file);
}

// ---------------------------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------------------------

const STREAM = 'stream/youtubestreamextractordefault';
const transcriptApi = (name: string): unknown =>
  JSON.parse(recordedFile(`youtube-transcript-api/${name}.innertube.json.static`));
const invidious = (name: string): unknown => JSON.parse(recordedFile(`invidious-mocks/video/${name}.json`));
const requestBody = (file: string): Record<string, unknown> =>
  JSON.parse(loadRecording(file).request.body ?? '{}') as Record<string, unknown>;

/** The error a parser throws on a recording, as a fixture `{ error }`. */
function replayedError(run: () => unknown): { error: { code: string; message: string } } {
  try {
    run();
  } catch (e) {
    if (e instanceof ApiError) return { error: { code: e.code, message: e.message } };
    throw e;
  }
  throw new Error('expected the recording to fail');
}

function videos(): void {
  // rCAS2eD-mcw: the VISIONOS player (the driver's first client) with short track refs.
  const doctor = `${STREAM}/licenseddoctor`;
  const player = parsePlayer(recordedJson(`${doctor}/generated_mock_3.json`), 'rCAS2eD-mcw');
  player.tracks = player.tracks.map((t) => ({
    ...t,
    ref: `${player.videoId}.${t.languageCode}${t.variant ? `.${t.variant}` : ''}${t.kind === 'asr' ? '.asr' : ''}`,
  }));
  const extras = mergeVideoExtras(
    parseNext(recordedJson(`${doctor}/generated_mock_8.json`)),
    parseMicroformat(recordedJson(`${doctor}/generated_mock_7.json`)),
  );
  write('videos', player.videoId, { player, extras });
  for (const track of player.tracks) {
    const code = track.languageCode;
    let text: TimedText;
    if (track.kind === 'asr') text = asrJson3(TRANSCRIPT, player.lengthSeconds);
    else if (code === 'en') text = manualJson3(TRANSCRIPT);
    else {
      const block =
        code === 'fr' || code === 'de' || code === 'es' ? TRANSLATIONS[code] : SHORT_TRANSLATIONS[code];
      if (block === undefined) throw new Error(`no caption text for ${track.ref}`);
      text = manualJson3(translated(block));
    }
    write('captions', track.ref, text, false);
  }
  // YouTube's machine translation of the English track into German (`translate_to=de`): the
  // German text on the English timings.
  write('captions', `${player.videoId}.en.de`, manualJson3(translated(TRANSLATIONS.de)), false);

  // Playable videos without captions, and live streams.
  const plain: [PlayerData, VideoExtras | undefined][] = [
    [parsePlayer(transcriptApi('youtube_transcripts_disabled'), 'dsMFmonKDD4'), undefined],
    [parsePlayer(transcriptApi('youtube_transcripts_disabled2'), 'Fjg5lYqvzUs'), undefined],
    [
      parsePlayer(invidious('scheduled_live_PBD-Podcast.player'), 'N-yVic7BbY0'),
      mergeVideoExtras(
        parseNext(invidious('scheduled_live_PBD-Podcast.next')),
        parseMicroformat(invidious('scheduled_live_PBD-Podcast.player')),
      ),
    ],
    [
      parsePlayer(
        recordedJson('stream/youtubestreamextractorlivestream/generated_mock_3.json'),
        'X4VbdwhkE10',
      ),
      mergeVideoExtras(
        parseNext(recordedJson('stream/youtubestreamextractorlivestream/generated_mock_8.json')),
        parseMicroformat(recordedJson('stream/youtubestreamextractorlivestream/generated_mock_7.json')),
      ),
    ],
  ];
  for (const [p, x] of plain) write('videos', p.videoId, x ? { player: p, extras: x } : { player: p });

  // Failures, replayed from the playability answers of the recordings.
  const failing: [string, () => unknown][] = [
    ...[
      ['privatecontent', '8VajtrESJzA'],
      ['restricted', '_PL2HJKxnOM'],
      ['paidcontent', 'ayI2iBwGdxw'],
      ['musicpremiumcontent', 'sMJ8bRN2dak'],
      ['nonexistent', 'don-t-exist'],
      ['invalidid', 'INVALID_ID_'],
    ].map(([dir = '', id = '']): [string, () => unknown] => [
      id,
      () => parsePlayer(recordedJson(`${STREAM}/notavailable/${dir}/generated_mock_1.json`), id),
    ]),
    ['Njp5uhTorCo', () => parsePlayer(transcriptApi('youtube_age_restricted'), 'Njp5uhTorCo')],
  ];
  for (const [id, run] of failing) write('videos', id, replayedError(run));
}

/** A channel's recorded profile and listings. */
interface ChannelOut {
  profile: ChannelProfile;
  tabs?: Partial<Record<'videos' | 'shorts' | 'streams', { newest: { items: VideoCard[] }[] }>>;
  playlists?: { items: PlaylistCard[] }[];
  latest?: VideoCard[];
}

function channels(): void {
  const out = new Map<string, ChannelOut>();
  const tab = (file: string, profile: ChannelProfile, t: 'videos' | 'shorts' | 'streams') =>
    parseChannelVideos(recordedJson(file), {
      channelId: profile.channelId,
      channelTitle: profile.title,
      tab: t,
    });

  // Kurzgesagt: the videos tab (one recorded page of 30, served as two pages of 15), the RSS feed
  // as `latest`, and the feed's /shorts/ entries as the shorts tab. No playlists are recorded.
  const kurzFile = 'youtubechannelextractor/kurzgesagt/generated_mock_2.json';
  const kurz = parseChannel(recordedJson(kurzFile));
  const uploads = tab(kurzFile, kurz, 'videos').items;
  const feedXml = loadRecording('youtubefeedextractor/kurzgesagt/generated_mock_0.json').response.body;
  const feed = parseChannelFeed(feedXml);
  if (feed.channelId !== kurz.channelId) throw new Error('the feed is not kurzgesagt’s');
  const feedRoot = child(parseXml(feedXml), 'feed');
  const shortIds = new Set(
    (feedRoot?.children ?? [])
      .filter((e) => e.name === 'entry')
      .filter((e) => e.children.some((c) => c.name === 'link' && c.attrs.href?.includes('/shorts/')))
      .map((e) => child(e, 'yt:videoId')?.text.trim()),
  );
  out.set(kurz.channelId, {
    profile: kurz,
    tabs: {
      videos: { newest: [{ items: uploads.slice(0, 15) }, { items: uploads.slice(15) }] },
      shorts: { newest: [{ items: feed.videos.filter((v) => shortIds.has(v.videoId)) }] },
    },
    playlists: [{ items: [] }],
    latest: feed.videos,
  });

  // The channels of the channel and channel-tab recordings.
  const gronkhFile = 'youtubechannelextractor/gronkh/generated_mock_3.json';
  const gronkh = parseChannel(recordedJson(gronkhFile));
  out.set(gronkh.channelId, {
    profile: gronkh,
    tabs: { videos: { newest: [tab(gronkhFile, gronkh, 'videos')] } },
  });
  const TAB = 'youtubechanneltabextractor';
  for (const [dir, t, first] of [
    ['videos', 'videos', 3],
    ['livestreams', 'streams', 3],
    ['shorts', 'shorts', 2],
  ] as const) {
    const firstFile = `${TAB}/${dir}/generated_mock_${first}.json`;
    const profile = parseChannel(recordedJson(firstFile));
    const pages = [firstFile, `${TAB}/${dir}/generated_mock_${first + 1}.json`].map((f) => ({
      items: tab(f, profile, t).items,
    }));
    out.set(profile.channelId, { profile, tabs: { [t]: { newest: pages } } });
  }
  const eevFile = `${TAB}/playlists/generated_mock_3.json`;
  const eev = parseChannel(recordedJson(eevFile));
  out.set(eev.channelId, {
    profile: eev,
    playlists: [eevFile, `${TAB}/playlists/generated_mock_4.json`].map((f) => ({
      items: parseChannelPlaylists(recordedJson(f), { channelId: eev.channelId, channelTitle: eev.title })
        .items,
    })),
  });
  for (const [id, file] of out) write('channels', id, file);

  // Names: each profile's handle, the resolve_url recordings, and the feed's legacy user name.
  const index: Record<string, string> = {};
  for (const { profile } of out.values())
    if (profile.handle) index[profile.handle.toLowerCase()] = profile.channelId;
  for (const file of [
    'youtubechannelextractor/gronkh/generated_mock_2.json',
    `${TAB}/videos/generated_mock_2.json`,
    `${TAB}/livestreams/generated_mock_2.json`,
    `${TAB}/playlists/generated_mock_2.json`,
  ]) {
    const path = new URL(String(requestBody(file).url)).pathname;
    const id = parseResolveUrl(recordedJson(file));
    const name = path.startsWith('/c/')
      ? `custom/${path.slice(3)}`
      : path.startsWith('/user/')
        ? `user/${path.slice(6)}`
        : path.slice(1);
    if (out.has(id)) index[name.toLowerCase()] = id;
  }
  const feedUser = new URL(
    loadRecording('youtubefeedextractor/kurzgesagt/generated_mock_0.json').request.url,
  );
  const user = feedUser.searchParams.get('user');
  if (user) index[`user/${user.toLowerCase()}`] = feed.channelId;
  write('channels', 'index', index);
}

function playlists(): void {
  const dir = 'youtubeplaylistextractor/continuationss';
  for (const [id, header, items] of [
    ['PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', 2, [3, 4]],
    ['PLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO', 5, [6]],
  ] as const) {
    const {
      continuation: _c,
      videos: _v,
      ...head
    } = parsePlaylist(recordedJson(`${dir}/generated_mock_${header}.json`), {
      playlistId: id,
    });
    const pages: PlaylistPage[] = items.map((n, i) => {
      const { continuation: _n, ...page } = parsePlaylist(recordedJson(`${dir}/generated_mock_${n}.json`), {
        playlistId: id,
      });
      return i === 0 ? { ...head, videos: page.videos } : { playlistId: id, videos: page.videos };
    });
    write('playlists', id, { pages });
  }
}

function search(): void {
  const pagesOf = (name: string): { pages: SearchPage[] } => ({
    pages: [2, 3].map((n) => {
      const { items, estimatedResults } = parseSearch(
        recordedJson(`search/youtubesearchextractor/${name}/generated_mock_${n}.json`),
      );
      return estimatedResults === undefined ? { items } : { items, estimatedResults };
    }),
  });
  write('search', 'test', {
    video: pagesOf('videos'),
    channel: pagesOf('channel'),
    playlist: pagesOf('playlists'),
    all: pagesOf('all'),
  });
  write('search', 'uco6ak', { all: pagesOf('randomquerynomorepages') });
  const suggest = loadRecording('youtubesuggestionextractor/generated_mock_0.json');
  write(
    'suggestions',
    new URL(suggest.request.url).searchParams.get('q') ?? 'hello',
    parseSuggestions(suggest.response.body),
  );
}

/** A comment as a fixture file holds it: the driver derives replies continuations and parent ids. */
function storedComment(c: Comment): Comment {
  const { repliesContinuation: _r, parentId: _p, ...rest } = c;
  return rest;
}

/** `list` as pages of `size`. */
function chunks<T>(list: readonly T[], size: number): { comments: T[] }[] {
  const out: { comments: T[] }[] = [];
  for (let i = 0; i < list.length; i += size) out.push({ comments: list.slice(i, i + size) });
  return out;
}

/**
 * xaQJbozY_Is (Kurzgesagt, "What Dinosaurs ACTUALLY Looked Like?"): comments from
 * `youtubecommentsextractor/replies/` (the WEB next, the first "Top" page, the pinned comment's
 * first reply page). No player was recorded for it: its PlayerData holds what the `next` shows
 * (title, channel, views, description) and no caption tracks.
 */
function comments(): void {
  const dir = 'youtubecommentsextractor/replies';
  const next = recordedJson(`${dir}/generated_mock_2.json`);
  const videoId = 'xaQJbozY_Is';
  const extras = parseNext(next);
  const owner = at(findFirst(next, 'videoOwnerRenderer'), 'title', 'runs', 0);
  const player: PlayerData = {
    videoId,
    title: textOf(at(findFirst(next, 'videoPrimaryInfoRenderer'), 'title')) ?? '',
    author: String(at(owner, 'text') ?? ''),
    channelId: String(at(owner, 'navigationEndpoint', 'browseEndpoint', 'browseId') ?? ''),
    description: extras.description ?? '',
    lengthSeconds: 0,
    viewCount: extras.viewCount ?? 0,
    keywords: [],
    thumbnails: [],
    live: 'none',
    tracks: [],
  };
  const top = parseCommentPage(recordedJson(`${dir}/generated_mock_3.json`), videoId).comments;
  const pinned = top.find((c) => c.repliesContinuation !== undefined);
  if (!pinned) throw new Error('no comment with replies on the recorded page');
  const replies = parseCommentPage(recordedJson(`${dir}/generated_mock_4.json`), videoId).comments;
  const {
    description: _d,
    viewCount: _v,
    videoId: _id,
    likeCountApproximate: _a,
    dateText: _t,
    dateTextSeconds: _s,
    ...rest
  } = extras;
  write('videos', videoId, {
    player,
    extras: rest,
    comments: {
      top: chunks(top.map(storedComment), 10),
      replies: { [pinned.commentId]: chunks(replies.map(storedComment), 5) },
    },
  });
}

function main(): void {
  if (!recordingsDir) {
    throw new Error('Set TUBESCRIBE_RECORDINGS to the recordings folder (../shared/youtube-recordings).');
  }
  for (const folder of GENERATED) rmSync(join(OUT, folder), { recursive: true, force: true });
  videos();
  comments();
  channels();
  playlists();
  search();
  execFileSync(
    join(ROOT, 'node_modules', '.bin', 'biome'),
    ['format', '--write', ...GENERATED.map((f) => join(OUT, f))],
    {
      cwd: ROOT,
      stdio: 'pipe',
    },
  );
  process.stdout.write(`wrote ${written.length} files under ${OUT}\n`);
}

main();
